import path from 'node:path';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { loadStylesheet } from '../test/css-modules';
import { dismissToast, toast, Toaster } from './toast';

beforeEach(() => {
  jest.useFakeTimers();
  act(() => dismissToast());
});
afterEach(() => jest.useRealTimers());

describe('Toaster', () => {
  it('when two toasts are raised, then only the newest is visible', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', description: 'Welcome back, jane!' });
    });
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second')).toBeTruthy();
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('when 5000 ms pass, then the toast closes', () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Logged out' }));
    act(() => jest.advanceTimersByTime(4999));
    expect(screen.getByText('Logged out')).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Logged out')).toBeNull();
  });

  it('when F8 is pressed, then the notifications region gets focus', () => {
    render(<Toaster />);
    fireEvent.keyDown(window, { key: 'F8' });
    expect(document.activeElement?.closest('[aria-label="Notifications (F8)"]')).toBeTruthy();
  });

  it('when a destructive toast shows, then it is announced as an alert and closes with its button', () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Login failed', variant: 'destructive' }));
    expect(screen.getByRole('alert').textContent).toContain('Login failed');
    act(() => screen.getByRole('button', { name: 'Close' }).click());
    expect(screen.queryByText('Login failed')).toBeNull();
  });

  it('when a toast shows, then it sits at the top under the header, clear of the actions at the bottom', () => {
    const removeCss = loadStylesheet(path.resolve(__dirname, '../styles/index.css'));
    render(<Toaster />);
    act(() => void toast({ title: 'Content generated successfully' }));
    const viewport = screen.getByText('Content generated successfully').closest('ol')!;
    const style = getComputedStyle(viewport);
    expect(style.position).toBe('fixed');
    expect(style.top).toBe('var(--wk-header-height)');
    expect(style.bottom).toBe('auto');
    expect(Number(style.zIndex)).toBeGreaterThan(10); // above the sticky header
    removeCss();
  });
});
