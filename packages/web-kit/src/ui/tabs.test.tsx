import { fireEvent, render, screen } from '@testing-library/react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

const renderTabs = (onValueChange?: (value: string) => void) =>
  render(
    <Tabs defaultValue="login" onValueChange={onValueChange}>
      <TabsList aria-label="Account">
        <TabsTrigger value="login">Login</TabsTrigger>
        <TabsTrigger value="register">Register</TabsTrigger>
      </TabsList>
      <TabsContent value="login">login form</TabsContent>
      <TabsContent value="register">register form</TabsContent>
    </Tabs>,
  );

describe('Tabs', () => {
  it('when rendered, then the default tab is selected and labels its panel', () => {
    renderTabs();
    const tab = screen.getByRole('tab', { name: 'Login' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Login' }).textContent).toBe('login form');
    expect(screen.queryByText('register form')).toBeNull();
  });

  it('when ArrowRight is pressed on a tab, then the next tab is focused and selected', () => {
    const onValueChange = jest.fn();
    renderTabs(onValueChange);
    const login = screen.getByRole('tab', { name: 'Login' });
    login.focus();
    fireEvent.keyDown(login, { key: 'ArrowRight' });
    const register = screen.getByRole('tab', { name: 'Register' });
    expect(document.activeElement).toBe(register);
    expect(register.getAttribute('aria-selected')).toBe('true');
    expect(onValueChange).toHaveBeenCalledWith('register');
    expect(screen.getByText('register form')).toBeTruthy();
  });
});
