import { z } from 'zod';
import { ERRORS, ErrorBody, ErrorCode, validationErrorBody } from './errors';
import { LoginBody } from './http/session';

describe('validationErrorBody', () => {
  it('when a body fails validation, then the first message leads and every issue is detailed', () => {
    const error = LoginBody.safeParse({}).error as z.ZodError;

    const body = validationErrorBody(error);

    expect(body).toEqual({
      code: 'VALIDATION.FAILED',
      message: 'Username is required',
      details: [
        { path: ['username'], message: 'Username is required' },
        { path: ['password'], message: 'Password is required' },
      ],
    });
    expect(ErrorBody.parse(body)).toEqual(body);
  });
});

describe('ERRORS', () => {
  it('when a code is looked up, then it has an HTTP error status and a message', () => {
    for (const code of Object.values(ErrorCode)) {
      expect(ERRORS[code].status).toBeGreaterThanOrEqual(400);
      expect(ERRORS[code].message).not.toBe('');
    }
  });

  it('when the SPEC words an error, then its default message quotes it', () => {
    expect(ERRORS[ErrorCode.WORKSPACE_DEFAULT_NOT_DELETABLE].message).toBe(
      'Cannot Delete Default Workspace',
    );
    expect(ERRORS[ErrorCode.USER_CANNOT_DELETE_SELF].message).toBe(
      'Cannot Delete Self: You cannot delete your own account.',
    );
  });
});
