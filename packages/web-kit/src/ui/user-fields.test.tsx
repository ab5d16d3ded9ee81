import { act, fireEvent, render, screen } from '@testing-library/react';
import { applyLanguage } from '../i18n/i18n';
import { fieldErrors } from '../i18n/localize-validation';
import { EmailField, PasswordField, UsernameField } from './user-fields';

// The account fields the shell's sign-in and sign-up forms and the admin's user forms share.

afterEach(() => act(() => applyLanguage('en')));

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the user fields', () => {
  it('when rendered for one’s own account, then labels, names, types and autocomplete suit a password manager', () => {
    render(
      <form>
        <UsernameField defaultValue="" />
        <EmailField defaultValue="" />
        <PasswordField autoComplete="current-password" defaultValue="" />
      </form>,
    );

    expect([input('Username').name, input('Username').type]).toEqual(['username', 'text']);
    expect(input('Username').getAttribute('autocomplete')).toBe('username');
    expect([input('Email').name, input('Email').type]).toEqual(['email', 'email']);
    expect(input('Email').getAttribute('autocomplete')).toBe('email');
    expect([input('Password').name, input('Password').type]).toEqual(['password', 'password']);
    expect(input('Password').getAttribute('autocomplete')).toBe('current-password');
  });

  it('when filled in for another user, then autocomplete is off and a new password is asked for', () => {
    render(
      <form>
        <UsernameField autoComplete="off" defaultValue="" />
        <EmailField autoComplete="off" defaultValue="" />
        <PasswordField label="New Password" autoComplete="new-password" defaultValue="" />
      </form>,
    );

    expect(input('Username').getAttribute('autocomplete')).toBe('off');
    expect(input('Email').getAttribute('autocomplete')).toBe('off');
    expect(input('New Password').getAttribute('autocomplete')).toBe('new-password');
  });

  it('when a field has an error, then the message shows, marks the input invalid and describes it', () => {
    render(
      <PasswordField autoComplete="new-password" error="Password must be at least 6 characters" />,
    );

    const field = input('Password');
    const message = screen.getByText('Password must be at least 6 characters');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(message.id);
  });

  it('when a field has a hint and an error, then the input is described by both', () => {
    render(<UsernameField hint="3 to 50 characters" error="Username is required" />);

    const describedBy = input('Username').getAttribute('aria-describedby')?.split(' ');
    expect(describedBy).toEqual([
      screen.getByText('Username is required').id,
      screen.getByText('3 to 50 characters').id,
    ]);
  });

  it('when a field has no error, then no message shows and the input is not marked', () => {
    render(<UsernameField value="jane" onChange={() => undefined} />);

    expect(input('Username').getAttribute('aria-invalid')).toBeNull();
    expect(input('Username').getAttribute('aria-describedby')).toBeNull();
  });

  it('when the value changes, then onChange gets the event', () => {
    const onChange = jest.fn();
    render(<EmailField value="" onChange={onChange} />);

    fireEvent.change(input('Email'), { target: { value: 'jane@example.com' } });

    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('when the language is Dutch, then the labels and a contracts message read in Dutch', () => {
    act(() => applyLanguage('nl'));
    const errors = fieldErrors([{ path: ['username'], message: 'Username is required' }]);
    render(
      <form>
        <UsernameField error={errors.username} />
        <EmailField />
        <PasswordField autoComplete="new-password" />
      </form>,
    );

    expect(input('Gebruikersnaam')).toBeTruthy();
    expect(input('E-mailadres')).toBeTruthy();
    expect(input('Wachtwoord')).toBeTruthy();
    expect(screen.getByText('Gebruikersnaam is verplicht')).toBeTruthy();
  });
});
