import { runWithContext } from './context';
import { captureLogs } from './test-support';

describe('createLogger', () => {
  it('when a logged object holds password, apiKey, authorization or cookie, then each shows [redacted]', () => {
    const { logger, lines, raw } = captureLogs();

    logger.info(
      {
        password: 'hunter2',
        apiKey: 'sk-live-123',
        authorization: 'Bearer abc.def',
        cookie: 'session=xyz',
        user: { email: 'a@b.c', password: 'hunter3', apiKey: 'sk-live-456' },
        headers: { authorization: 'Bearer ghi', cookie: 'session=uvw', accept: 'application/json' },
      },
      'something happened',
    );

    const [line] = lines();
    expect(line).toMatchObject({
      password: '[redacted]',
      apiKey: '[redacted]',
      authorization: '[redacted]',
      cookie: '[redacted]',
      user: { email: 'a@b.c', password: '[redacted]', apiKey: '[redacted]' },
      headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'application/json' },
    });
    for (const secret of ['hunter2', 'hunter3', 'sk-live', 'Bearer', 'session='])
      expect(raw()).not.toContain(secret);
  });

  it('when logging inside a request context, then the line carries its request id', () => {
    const { logger, lines } = captureLogs();

    runWithContext({ requestId: 'req-42' }, () => logger.info('inside'));
    logger.info('outside');

    expect(lines().map((l) => l.requestId)).toEqual(['req-42', undefined]);
  });
});
