import { z } from 'zod';
import { ConfigError, baseServiceEnv, envBool, envPort, httpEnv, loadConfig } from './config';

const validEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  PORT: '4103',
  MONGO_URL: 'mongodb://127.0.0.1:27017/aict_prompt',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672/aict',
  MINIO_ENDPOINT: 'http://127.0.0.1:9000',
  MINIO_ACCESS_KEY: 'aictminio',
  MINIO_SECRET_KEY: 'aictminio-secret',
  MINIO_BUCKET: 'aict-prompt',
};

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('when every shared variable is valid, then it returns typed values with defaults applied', () => {
    const config = loadConfig(baseServiceEnv, validEnv);

    expect(config).toEqual({ ...validEnv, PORT: 4103, HOST: '127.0.0.1' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when several keys are missing or wrong, then ONE error names every one of them', () => {
    const env = {
      ...validEnv,
      PORT: 'eighty',
      MONGO_URL: undefined,
      AMQP_URL: 'http://x',
      LOG_LEVEL: 'loud',
    };

    let message = '';
    try {
      loadConfig(baseServiceEnv, env);
    } catch (err) {
      message = (err as Error).message;
    }

    expect(message).toMatch(/^Invalid configuration: /);
    expect(message).toContain('MONGO_URL is required');
    expect(message).toContain('PORT must be a number');
    expect(message).toContain('AMQP_URL must be a URL starting with amqp:// or amqps://');
    expect(message).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(problemsOf(() => loadConfig(baseServiceEnv, env))).toHaveLength(4);
  });

  it('when a variable is set but empty, then it counts as missing', () => {
    expect(
      problemsOf(() => loadConfig(baseServiceEnv, { ...validEnv, MINIO_SECRET_KEY: '' })),
    ).toEqual(['MINIO_SECRET_KEY is required']);
  });

  it('when a secret is wrong, then the message names the key but never shows the value', () => {
    const env = {
      ...validEnv,
      MONGO_URL: 'postgres://user:hunter2@db/x',
      MINIO_BUCKET: 'Bad_Bucket',
    };

    const problems = problemsOf(() => loadConfig(baseServiceEnv, env));

    expect(problems).toEqual([
      'MONGO_URL must be a URL starting with mongodb:// or mongodb+srv://',
      'MINIO_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots or hyphens)',
    ]);
    expect(problems.join(' ')).not.toContain('hunter2');
  });

  it('when MONGO_URL names no database, then it is refused; a replica-set URL is accepted', () => {
    expect(
      problemsOf(() => loadConfig(baseServiceEnv, { ...validEnv, MONGO_URL: 'mongodb://h:27017' })),
    ).toEqual(['MONGO_URL must name the database (mongodb://host:27017/<database>)']);
    const rs = 'mongodb://a:27017,b:27017/aict_auth?replicaSet=rs0';
    expect(loadConfig(baseServiceEnv, { ...validEnv, MONGO_URL: rs }).MONGO_URL).toBe(rs);
  });

  it('when a service extends the base schema, then its own keys are parsed and reported too', () => {
    const schema = httpEnv.extend({
      PORT: envPort.default(4101),
      JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
      COOKIE_SECURE: envBool.default(false),
    });

    expect(loadConfig(schema, { JWT_SECRET: 'x'.repeat(32), COOKIE_SECURE: 'yes' })).toMatchObject({
      PORT: 4101,
      COOKIE_SECURE: true,
    });
    expect(
      problemsOf(() =>
        loadConfig(schema, { JWT_SECRET: 'short', PORT: '70000', COOKIE_SECURE: 'maybe' }),
      ),
    ).toEqual([
      'PORT must be at most 65535',
      'JWT_SECRET must be at least 32 characters',
      'COOKIE_SECURE must be true or false',
    ]);
  });
});
