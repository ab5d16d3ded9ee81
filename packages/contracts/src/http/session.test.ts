import { z } from 'zod';
import { LoginBody, RegisterBody } from './session';
import { CreateUserBody, ResetPasswordBody } from './users';
import { CreateWorkspaceBody, UpdateWorkspaceBody } from './workspaces';

function messages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  if (result.success) return {};
  return Object.fromEntries(
    result.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('LoginBody', () => {
  it('when username and password are missing, then the SPEC messages are given', () => {
    expect(messages(LoginBody.safeParse({}))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
  });

  it('when the username is blank, then it is required', () => {
    expect(messages(LoginBody.safeParse({ username: '  ', password: 'x' }))).toEqual({
      username: 'Username is required',
    });
  });

  it('when credentials are given, then the username is trimmed and the password kept as is', () => {
    expect(LoginBody.parse({ username: ' ann ', password: ' pw ' })).toEqual({
      username: 'ann',
      password: ' pw ',
    });
  });
});

describe('RegisterBody', () => {
  function buildRegistration(overrides: Record<string, unknown> = {}) {
    return { username: 'ann', email: 'ann@example.com', password: 'secret', ...overrides };
  }

  it('when the password has 5 characters, then it must be at least 6', () => {
    expect(messages(RegisterBody.safeParse(buildRegistration({ password: '12345' })))).toEqual({
      password: 'Password must be at least 6 characters',
    });
  });

  it('when the password has 6 characters, then it is accepted', () => {
    expect(RegisterBody.safeParse(buildRegistration({ password: '123456' })).success).toBe(true);
  });

  it('when the email is invalid or blank, then a valid email is asked for', () => {
    for (const email of ['not-an-email', '', undefined]) {
      expect(messages(RegisterBody.safeParse(buildRegistration({ email })))).toEqual({
        email: 'Please enter a valid email',
      });
    }
  });

  it('when the email has capitals and blanks, then it is trimmed and lower-cased', () => {
    expect(RegisterBody.parse(buildRegistration({ email: ' Ann@Example.COM ' })).email).toBe(
      'ann@example.com',
    );
  });

  it('when the username is shorter than 3 characters, then it is refused', () => {
    expect(messages(RegisterBody.safeParse(buildRegistration({ username: 'an' })))).toEqual({
      username: 'Username must be at least 3 characters',
    });
  });
});

describe('CreateUserBody', () => {
  it('when fields are missing, then the Missing Fields message is given for each', () => {
    expect(messages(CreateUserBody.safeParse({ username: '', email: '' }))).toEqual({
      username: 'Missing Fields: Please fill out all required fields.',
      email: 'Missing Fields: Please fill out all required fields.',
      password: 'Missing Fields: Please fill out all required fields.',
    });
  });

  it('when no role is given, then the role is user and no workspace is assigned', () => {
    const body = CreateUserBody.parse({ username: 'bob', email: 'b@x.io', password: 'secret' });

    expect(body).toMatchObject({ role: 'user' });
    expect(body.workspaceId).toBeUndefined();
  });
});

describe('ResetPasswordBody', () => {
  it('when the password is empty, then Missing Password is given', () => {
    expect(messages(ResetPasswordBody.safeParse({ password: '' }))).toEqual({
      password: 'Missing Password',
    });
  });
});

describe('CreateWorkspaceBody', () => {
  it('when the name is blank, then it is refused', () => {
    expect(messages(CreateWorkspaceBody.safeParse({ name: '   ' }))).toEqual({
      name: 'Name is required',
    });
    expect(messages(UpdateWorkspaceBody.safeParse({ name: '' }))).toEqual({
      name: 'Name is required',
    });
  });

  it('when an update has no name, then the name is left alone', () => {
    expect(UpdateWorkspaceBody.parse({ description: 'x' })).toEqual({ description: 'x' });
  });
});
