/**
 * Deployment files, validated offline (no Docker engine here): docker-compose.yml and .env.example
 * through our compose-go validator (infra/compose-validate), the Dockerfile and .dockerignore by
 * reading them, and the environment each service's config schema requires against what compose
 * gives it.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envKeysOf } from './env-schema';

const ROOT = resolve(__dirname, '..');
const COMPOSE = join(ROOT, 'docker-compose.yml');
const ENV_EXAMPLE = join(ROOT, '.env.example');
const DOCKERFILE = join(ROOT, 'Dockerfile');

// What the product's processes are, where they listen and what they own (CONTRIBUTING.md and the
// deployment issue). `secrets` are the variables of the next issue, provided from now on.
interface Target {
  name: string;
  dir: string;
  port: number;
  database?: string;
  bucket?: string;
  secrets: string[];
}
// Services check the gateway's signed context; the gateway signs it and checks session tokens.
const COMMON_SECRETS = ['JWT_PUBLIC_KEY', 'CONTEXT_PUBLIC_KEY'];
const SERVICES: Target[] = [
  {
    name: 'auth',
    dir: 'services/auth',
    port: 4101,
    database: 'aict_auth',
    secrets: [
      ...COMMON_SECRETS,
      'JWT_PRIVATE_KEY',
      'SUPERADMIN_USERNAME',
      'SUPERADMIN_EMAIL',
      'SUPERADMIN_PASSWORD',
    ],
  },
  {
    name: 'workspace',
    dir: 'services/workspace',
    port: 4102,
    database: 'aict_workspace',
    bucket: 'aict-workspace',
    secrets: [...COMMON_SECRETS, 'SETTINGS_ENCRYPTION_KEY', 'OPENAI_BASE_URL'],
  },
  {
    name: 'prompt',
    dir: 'services/prompt',
    port: 4103,
    database: 'aict_prompt',
    bucket: 'aict-prompt',
    secrets: COMMON_SECRETS,
  },
  {
    name: 'content',
    dir: 'services/content',
    port: 4104,
    database: 'aict_content',
    bucket: 'aict-content',
    secrets: COMMON_SECRETS,
  },
  {
    name: 'generation',
    dir: 'services/generation',
    port: 4105,
    database: 'aict_generation',
    bucket: 'aict-generation',
    secrets: [...COMMON_SECRETS, 'OPENAI_BASE_URL'],
  },
];
const GATEWAY: Target = {
  name: 'gateway',
  dir: 'gateway',
  port: 8080,
  secrets: ['JWT_PUBLIC_KEY', 'CONTEXT_PRIVATE_KEY'],
};
const NODE_TARGETS = [...SERVICES, GATEWAY];
const INFRASTRUCTURE = ['mongo', 'minio', 'rabbitmq'];

/** The gateway's variables (not in CONTRIBUTING.md's shared table). */
const GATEWAY_ENV = [
  'NODE_ENV',
  'LOG_LEVEL',
  'HOST',
  'PORT',
  'AUTH_SERVICE_URL',
  'WORKSPACE_SERVICE_URL',
  'PROMPT_SERVICE_URL',
  'CONTENT_SERVICE_URL',
  'GENERATION_SERVICE_URL',
  'AMQP_URL',
  'STATIC_DIR',
];

// ---------------------------------------------------------------------------------------------
// The validator and the resolved project

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface ComposeService {
  image?: string;
  command?: string[] | null;
  build?: { context: string; dockerfile: string; args?: Record<string, string | null> };
  environment?: Record<string, string | null>;
  healthcheck?: { test?: string[]; disable?: boolean; interval?: string };
  depends_on?: Record<string, { condition: string }>;
  ports?: { target: number; published?: string }[];
  volumes?: { type: string; source: string; target: string }[];
}
interface ComposeProject {
  name: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

let validator = '';
let scratch = '';
let resolved: ComposeProject | undefined;
let resolveError = '';

function runValidator(args: string[]): Promise<Run> {
  return new Promise((done) => {
    // A clean environment: a variable of the test's own shell must not stand in for a missing one.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };
    execFile(
      validator,
      args,
      { env, cwd: scratch, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

function project(): ComposeProject {
  if (!resolved)
    throw new Error(`docker-compose.yml did not validate with .env.example:\n${resolveError}`);
  return resolved;
}

function service(name: string): ComposeService {
  const s = project().services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
}

/** Writes `text` to the scratch folder and returns its path. */
function scratchFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** `text` with `from` replaced by `to`; throws when `from` is absent, so a mutation is never a no-op. */
function mutate(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`mutation did not apply: ${String(from)} not found`);
  return out;
}

beforeAll(async () => {
  const binaries = (await import(
    pathToFileURL(join(ROOT, 'infra', 'lib', 'binaries.mjs')).href
  )) as {
    ensureComposeValidator: () => Promise<string>;
  };
  validator = await binaries.ensureComposeValidator();
  scratch = mkdtempSync(join(tmpdir(), 'aict-deploy-'));
  const run = await runValidator(['-json', '-env-file', ENV_EXAMPLE, COMPOSE]);
  if (run.code === 0) resolved = JSON.parse(run.stdout) as ComposeProject;
  else resolveError = run.stderr;
}, 300_000); // the first build of the validator takes ~25 s, more with a cold Go module cache

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const composeText = () => readFileSync(COMPOSE, 'utf8');
const envExampleText = () => readFileSync(ENV_EXAMPLE, 'utf8');

// ---------------------------------------------------------------------------------------------

describe('docker-compose.yml through the validator', () => {
  test('when validated with .env.example, then it is accepted', async () => {
    const run = await runValidator(['-env-file', ENV_EXAMPLE, COMPOSE]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^OK .*project aict; 9 services/);
  });

  const composeMutations: [string, string | RegExp, string, RegExp][] = [
    [
      'an unknown key',
      '    hostname: rabbitmq\n',
      '    hostname: rabbitmq\n    hostnames: rabbitmq\n',
      /hostnames/,
    ],
    ['a wrong type', /^ {2}read_only: true$/m, '  read_only: [true]', /read_only/],
    [
      'a bad duration',
      /^ {4}interval: 15s$/m,
      '    interval: 15 seconds',
      /unknown unit .*15 seconds/,
    ],
    [
      'an undefined depends_on target',
      /^ {6}auth:\n {8}condition/m,
      '      authn:\n        condition',
      /undefined service "authn"/,
    ],
    [
      'an unknown depends_on condition',
      /condition: service_healthy/,
      'condition: service_up',
      /condition/,
    ],
    [
      'an unset variable without default',
      "PORT: '4103'",
      'PORT: ${PROMPT_PORT}',
      /PROMPT_PORT.*not set/,
    ],
  ];
  test.each(composeMutations)(
    'when a copy has %s, then it is rejected',
    async (_what, from, to, message) => {
      const file = scratchFile('docker-compose.yml', mutate(composeText(), from, to));
      const run = await runValidator(['-env-file', ENV_EXAMPLE, file]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^INVALID /);
      expect(run.stderr).toMatch(message);
    },
  );

  const envMutations: [string, RegExp, string, string][] = [
    ['a required secret missing', /^JWT_PUBLIC_KEY=.*\n/m, '', 'JWT_PUBLIC_KEY'],
    [
      'a required secret empty',
      /^SUPERADMIN_PASSWORD=.*$/m,
      'SUPERADMIN_PASSWORD=',
      'SUPERADMIN_PASSWORD',
    ],
    ['the RabbitMQ password missing', /^RABBITMQ_PASSWORD=.*\n/m, '', 'RABBITMQ_PASSWORD'],
  ];
  test.each(envMutations)(
    'when the env file has %s, then compose refuses and names it',
    async (_what, from, to, name) => {
      const envFile = scratchFile('missing.env', mutate(envExampleText(), from, to));
      const run = await runValidator(['-env-file', envFile, COMPOSE]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `required variable ${name} is missing a value: set ${name} in .env`,
      );
    },
  );

  test('when the key pair is appended to .env as the comments of .env.example say, then the services receive the multi-line PEM intact', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    // printf 'JWT_PRIVATE_KEY="%s"\n' "$(cat jwt-private.pem)" >> .env   ($(...) drops the last newline)
    const appended = `${envExampleText()}JWT_PRIVATE_KEY="${privateKey.trimEnd()}"\nJWT_PUBLIC_KEY="${publicKey.trimEnd()}"\n`;
    const run = await runValidator([
      '-json',
      '-env-file',
      scratchFile('keys.env', appended),
      COMPOSE,
    ]);
    expect(run.code).toBe(0);
    const p = JSON.parse(run.stdout) as ComposeProject;
    expect(p.services.auth?.environment?.JWT_PRIVATE_KEY).toBe(privateKey.trimEnd());
    for (const t of NODE_TARGETS)
      expect(p.services[t.name]?.environment?.JWT_PUBLIC_KEY).toBe(publicKey.trimEnd());
  });
});

// ---------------------------------------------------------------------------------------------

/** CONTRIBUTING.md's "Environment variables (shared names)" table: the names in its first column. */
function sharedEnvFromContributing(): string[] {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section =
    /^## Environment variables[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) if (m[1]) names.push(m[1]);
  }
  return names;
}

interface Requirement {
  source: string;
  required: string[];
}

/** What `target` requires: its src/config.ts when it exists (read from `root`), else the shared list. */
function requirementOf(target: Target, root = ROOT): Requirement {
  const configFile = join(root, target.dir, 'src', 'config.ts');
  if (existsSync(configFile)) {
    const sharedFile = join(root, 'packages', 'service-kit', 'src', 'config.ts');
    const shared = existsSync(sharedFile)
      ? { text: readFileSync(sharedFile, 'utf8'), file: 'packages/service-kit/src/config.ts' }
      : undefined;
    const keys = envKeysOf(
      { text: readFileSync(configFile, 'utf8'), file: `${target.dir}/src/config.ts` },
      shared,
    );
    if (keys.size === 0) {
      throw new Error(
        `${target.dir}/src/config.ts declares no UPPER_CASE env key that deploy/env-schema.ts can read`,
      );
    }
    return {
      source: `${target.dir}/src/config.ts`,
      required: [...keys].filter(([, k]) => k.required).map(([name]) => name),
    };
  }
  if (target === GATEWAY)
    return { source: 'the gateway list of the deployment issue', required: GATEWAY_ENV };
  const shared = sharedEnvFromContributing();
  return {
    source: 'CONTRIBUTING.md (no src/config.ts yet)',
    // A service without a bucket (auth) does not use MinIO at all.
    required: target.bucket ? shared : shared.filter((k) => !k.startsWith('MINIO_')),
  };
}

/** The required variables `env` lacks (empty counts as unset, as in service-kit's loadConfig). */
function missingFrom(env: Record<string, string | null>, requirement: Requirement): string[] {
  return requirement.required.filter(
    (k) => env[k] === undefined || env[k] === null || env[k] === '',
  );
}

describe('the environment compose gives each process', () => {
  test('when CONTRIBUTING.md is read, then its shared variable table is found', () => {
    expect(sharedEnvFromContributing()).toEqual(
      expect.arrayContaining([
        'NODE_ENV',
        'LOG_LEVEL',
        'HOST',
        'PORT',
        'MONGO_URL',
        'AMQP_URL',
        'MINIO_ENDPOINT',
        'MINIO_BUCKET',
      ]),
    );
  });

  test.each(NODE_TARGETS.map((t) => [t.name, requirementOf(t).source, t] as const))(
    'when %s starts, then compose provides every variable its config requires (from %s)',
    (_name, _source, target) => {
      expect(missingFrom(service(target.name).environment ?? {}, requirementOf(target))).toEqual(
        [],
      );
    },
  );

  test.each(NODE_TARGETS.map((t) => [t.name, t] as const))(
    'when %s starts, then it gets its port, database, bucket and secrets',
    (_name, target) => {
      const env = service(target.name).environment ?? {};
      expect(env.NODE_ENV).toBe('production');
      expect(env.HOST).toBe('0.0.0.0');
      expect(env.PORT).toBe(String(target.port));
      const amqp = new URL(env.AMQP_URL ?? '');
      expect([amqp.protocol, amqp.host, amqp.pathname]).toEqual([
        'amqp:',
        'rabbitmq:5672',
        '/aict',
      ]);
      if (target.database) {
        const mongo = new URL(env.MONGO_URL ?? '');
        expect([mongo.protocol, mongo.host, mongo.pathname]).toEqual([
          'mongodb:',
          'mongo:27017',
          `/${target.database}`,
        ]);
        expect(mongo.searchParams.get('replicaSet')).toBe('rs0');
      } else {
        expect(env.MONGO_URL).toBeUndefined();
      }
      if (target.bucket) {
        expect(env.MINIO_BUCKET).toBe(target.bucket);
        expect(env.MINIO_ENDPOINT).toBe('http://minio:9000');
        expect([env.MINIO_ACCESS_KEY, env.MINIO_SECRET_KEY]).toEqual([
          expect.stringMatching(/\S/),
          expect.stringMatching(/\S/),
        ]);
      } else {
        // Least privilege: no bucket, no MinIO credentials.
        expect(Object.keys(env).filter((k) => k.startsWith('MINIO_'))).toEqual([]);
      }
      for (const secret of target.secrets)
        expect([secret, env[secret]]).toEqual([secret, expect.stringMatching(/\S/)]);
      // Least privilege: the signing key stays with auth, the encryption key with workspace.
      if (target.name !== 'auth') expect(env.JWT_PRIVATE_KEY).toBeUndefined();
      if (target.name !== 'workspace') expect(env.SETTINGS_ENCRYPTION_KEY).toBeUndefined();
    },
  );

  test('when the gateway forwards, then each *_SERVICE_URL names a compose service and the port it listens on', () => {
    const env = service('gateway').environment ?? {};
    for (const t of SERVICES) {
      const url = new URL(env[`${t.name.toUpperCase()}_SERVICE_URL`] ?? '');
      expect(url.protocol).toBe('http:');
      expect(service(url.hostname).environment?.PORT).toBe(url.port);
      expect(url.hostname).toBe(t.name);
    }
    expect(env.STATIC_DIR).toBe('/app/frontends');
  });
});

// ---------------------------------------------------------------------------------------------

describe('reading a config schema (deploy/env-schema.ts)', () => {
  // A trimmed copy of service-kit's pieces, so these cases do not move when that file does.
  const kit = {
    file: 'kit',
    text: `
      export const nodeEnv = z.enum(['development', 'production']).default('development');
      export const envPort = envInt({ min: 0, max: 65535 });
      export const httpEnv = z.object({
        NODE_ENV: nodeEnv,
        HOST: envString.default('127.0.0.1'), // "FAKE_IN_COMMENT: x"
        PORT: envPort,
      });
      export const mongoEnv = z.object({ MONGO_URL: envMongoUrl });
      export const minioEnv = z.object({ MINIO_ENDPOINT: envUrl(['http']), MINIO_BUCKET: envBucket });
      export const baseServiceEnv = httpEnv.extend({ ...mongoEnv.shape, ...minioEnv.shape });
      export interface Shape { NOT_AN_ENV_KEY: string }
    `,
  };
  const required = (text: string) =>
    [...envKeysOf({ text, file: 'svc' }, kit)]
      .filter(([, k]) => k.required)
      .map(([n]) => n)
      .sort();

  test('when a service extends the shared schema, then it requires the shared keys, less those it defaults', () => {
    const text = `export const configSchema = baseServiceEnv.extend({ PORT: envPort.default(4103), JWT_PUBLIC_KEY: envString });`;
    expect(required(text)).toEqual([
      'JWT_PUBLIC_KEY',
      'MINIO_BUCKET',
      'MINIO_ENDPOINT',
      'MONGO_URL',
    ]);
  });

  test('when a service omits keys or spreads only some pieces, then only those are required', () => {
    expect(required(`export const c = baseServiceEnv.omit({ MINIO_BUCKET: true });`)).toEqual([
      'MINIO_ENDPOINT',
      'MONGO_URL',
      'PORT',
    ]);
    expect(
      required(
        `export const c = httpEnv.extend({ ...mongoEnv.shape, SEED: z.string().optional() });`,
      ),
    ).toEqual(['MONGO_URL', 'PORT']);
  });

  test('when keys sit in comments, strings or interfaces, then they are not read as env keys', () => {
    const text = `
      // OLD_KEY: envString
      export interface Config { TYPED_KEY: string }
      export const configSchema = z.object({ REAL_KEY: envString, LABEL: z.string().default('A: b') });`;
    expect(required(text)).toEqual(['REAL_KEY']);
  });

  test('when a config.ts requires a variable compose does not give, then the check reports it', () => {
    const root = mkdtempSync(join(scratch, 'repo-'));
    const target: Target = { name: 'svc', dir: 'services/svc', port: 1, secrets: [] };
    mkdirSync(join(root, 'services', 'svc', 'src'), { recursive: true });
    writeFileSync(
      join(root, 'services', 'svc', 'src', 'config.ts'),
      `export const configSchema = z.object({ PORT: envPort.default(1), MONGO_URL: envMongoUrl, NEW_SECRET: envString });`,
    );
    const requirement = requirementOf(target, root);
    expect(requirement.source).toBe('services/svc/src/config.ts');
    expect(
      missingFrom({ MONGO_URL: 'mongodb://mongo:27017/x', NEW_SECRET: '' }, requirement),
    ).toEqual(['NEW_SECRET']);
  });
});

describe('the shape of the stack', () => {
  test('when the stack runs, then only the gateway publishes a port, and it is 8080', () => {
    const publishing = Object.entries(project().services)
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([name]) => name);
    expect(publishing).toEqual(['gateway']);
    expect(service('gateway').ports?.map((p) => [p.target, p.published])).toEqual([[8080, '8080']]);
  });

  test('when every Node process is built, then it comes from the one Dockerfile with SERVICE naming its workspace', () => {
    for (const t of NODE_TARGETS) {
      const build = service(t.name).build;
      expect([t.name, build?.context, build?.dockerfile, build?.args?.SERVICE]).toEqual([
        t.name,
        ROOT,
        'Dockerfile',
        t.dir,
      ]);
      const manifest = JSON.parse(readFileSync(join(ROOT, t.dir, 'package.json'), 'utf8')) as {
        main?: string;
        scripts?: Record<string, string>;
      };
      expect([t.name, manifest.main, typeof manifest.scripts?.build]).toEqual([
        t.name,
        'dist/main.js',
        'string',
      ]);
    }
  });

  test('when a container is checked, then every service has a health check: /healthz for Node, readiness for infrastructure', () => {
    for (const [name, s] of Object.entries(project().services)) {
      expect([
        name,
        s.healthcheck?.disable ?? false,
        (s.healthcheck?.test ?? []).length > 0,
      ]).toEqual([name, false, true]);
    }
    for (const t of NODE_TARGETS)
      expect(service(t.name).healthcheck?.test?.join(' ')).toMatch(
        /^CMD node -e fetch\(.*\/healthz/,
      );
    expect(service('mongo').command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(service('mongo').healthcheck?.test?.join(' ')).toMatch(
      /rs\.status\(\)[\s\S]*rs\.initiate\([\s\S]*isWritablePrimary/,
    );
    expect(service('minio').healthcheck?.test?.join(' ')).toContain('/minio/health/ready');
    expect(service('rabbitmq').healthcheck?.test).toEqual([
      'CMD',
      'rabbitmq-diagnostics',
      '-q',
      'ping',
    ]);
  });

  test('when the stack starts, then each process waits for what it uses to be healthy', () => {
    for (const t of NODE_TARGETS) {
      const deps = service(t.name).depends_on ?? {};
      for (const [dep, d] of Object.entries(deps))
        expect([t.name, dep, d.condition]).toEqual([t.name, dep, 'service_healthy']);
      const wanted =
        t === GATEWAY
          ? ['rabbitmq', ...SERVICES.map((s) => s.name)]
          : ['mongo', 'rabbitmq', ...(t.bucket ? ['minio'] : [])];
      expect([t.name, Object.keys(deps).sort()]).toEqual([t.name, wanted.sort()]);
    }
  });

  test('when containers are recreated, then the data stays in named volumes', () => {
    const mounts = (name: string) => (service(name).volumes ?? []).map((v) => [v.type, v.target]);
    expect(mounts('mongo')).toEqual(expect.arrayContaining([['volume', '/data/db']]));
    expect(mounts('minio')).toEqual([['volume', '/data']]);
    expect(mounts('rabbitmq')).toEqual([['volume', '/var/lib/rabbitmq']]);
    for (const name of INFRASTRUCTURE) {
      for (const v of service(name).volumes ?? [])
        expect(Object.keys(project().volumes ?? {})).toContain(v.source);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('.env.example', () => {
  const variables = () =>
    envExampleText()
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);

  test('when compose interpolates a variable, then .env.example defines it, and it defines nothing compose does not use', () => {
    const yaml = composeText()
      .split('\n')
      .filter((l) => !/^\s*#/.test(l))
      .join('\n');
    const used = new Set([...yaml.matchAll(/(?<!\$)\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect(variables().sort()).toEqual([...used].sort());
    expect(new Set(variables()).size).toBe(variables().length);
  });

  test('when a variable is listed, then a comment in its paragraph explains it', () => {
    for (const paragraph of envExampleText().split(/\n\s*\n/)) {
      const lines = paragraph.split('\n');
      if (lines.some((l) => /^[A-Z][A-Z0-9_]*=/.test(l))) {
        expect([paragraph, lines.some((l) => l.startsWith('#'))]).toEqual([paragraph, true]);
      }
    }
  });

  test('when .env.example is read, then it holds no key material, and it tells how to generate the key pair', () => {
    const values = envExampleText()
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
    expect(values).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    expect(envExampleText()).toContain(
      'openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256',
    );
    expect(envExampleText()).toContain('openssl pkey -in jwt-private.pem -pubout');
  });
});

// ---------------------------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** Stages of a Dockerfile: continuation lines joined, comments dropped, global ARG defaults applied to FROM. */
function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (!full) continue;
    const m = /^(\S+)\s*(.*)$/.exec(full);
    if (m?.[1]) instructions.push({ op: m[1].toUpperCase(), args: m[2] ?? '' });
  }
  const globals = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.op === 'FROM') {
      const [image, , name] = ins.args.split(/\s+/);
      const from = (image ?? '').replace(/\$\{?(\w+)\}?/g, (_, v: string) => globals.get(v) ?? '');
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else if (stages.length === 0) {
      const arg = /^ARG\s+(\w+)=(\S+)/.exec(`${ins.op} ${ins.args}`);
      if (arg?.[1] && arg[2]) globals.set(arg[1], arg[2]);
    } else {
      stages[stages.length - 1]?.instructions.push(ins);
    }
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = () => parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
  const runtime = (): Stage => {
    const s = stages().pop();
    if (!s) throw new Error('Dockerfile has no stage');
    return s;
  };
  const build = () => {
    const s = stages().find((st) => st.name === 'build');
    if (!s) throw new Error('Dockerfile has no stage named build');
    return s;
  };
  const runs = (stage: Stage) =>
    stage.instructions.filter((i) => i.op === 'RUN').map((i) => i.args);

  test('when the runtime stage installs, then it uses npm ci --omit=dev for the selected workspace only', () => {
    const installs = runs(runtime()).filter((r) => /\bnpm\s+(ci|install|i)\b/.test(r));
    expect(installs.length).toBeGreaterThan(0);
    for (const r of installs) {
      expect(r).toMatch(/\bnpm ci\b/);
      expect(r).toContain('--omit=dev');
      expect(r).toMatch(/--workspace[= ]"?\$\{?SERVICE\b/);
      expect(r).toContain('--include-workspace-root=false');
    }
  });

  test('when the runtime stage runs, then it is node slim or alpine, as a non-root USER, with NODE_ENV=production and node dist/main.js', () => {
    const rt = runtime();
    expect(rt.from).toMatch(/^node:\d+(\.\d+)*-(slim|alpine)/);
    const users = rt.instructions.filter((i) => i.op === 'USER').map((i) => i.args.trim());
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    const env = rt.instructions
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    const cmd = rt.instructions.filter((i) => i.op === 'CMD').pop();
    expect(JSON.parse(cmd?.args ?? 'null')).toEqual(['node', 'dist/main.js']);
    const workdir = rt.instructions.filter((i) => i.op === 'WORKDIR').pop();
    expect(workdir?.args).toBe('/app/${SERVICE}');
  });

  test('when the runtime stage is checked for health, then a HEALTHCHECK fetches /healthz with node (no curl)', () => {
    const checks = runtime().instructions.filter((i) => i.op === 'HEALTHCHECK');
    expect(checks).toHaveLength(1);
    const args = checks[0]?.args ?? '';
    expect(args).toMatch(/CMD \["node", "-e", ".*fetch\(.*\/healthz/);
    expect(args).not.toMatch(/\b(curl|wget)\b/);
  });

  test('when the runtime stage copies from the build, then it takes only dist/ folders', () => {
    const fromBuild = runtime().instructions.filter(
      (i) => i.op === 'COPY' && /--from=build\b/.test(i.args),
    );
    expect(fromBuild.map((i) => i.args.replace(/--\S+\s+/g, '').trim())).toEqual(['/out/ ./']);
    const filling = runs(build()).filter((r) => r.includes('/out'));
    expect(filling.length).toBeGreaterThan(0);
    for (const r of filling) {
      for (const cp of r.split(/&&|;|\bthen\b/).filter((c) => /\bcp\b/.test(c))) {
        const sources = cp
          .replace(/^.*?\bcp\b/, '')
          .trim()
          .split(/\s+/)
          .filter((w) => !w.startsWith('-') && !w.startsWith('/out'));
        for (const src of sources) expect(src.replace(/"/g, '')).toMatch(/\/dist$/);
      }
    }
  });

  test('when the build stage runs, then it installs from the lockfile and builds the shared packages, the workspace and (gateway) the front-ends', () => {
    const b = build();
    const r = runs(b);
    expect(r.some((x) => /\bnpm ci\b/.test(x) && !x.includes('--omit'))).toBe(true);
    expect(
      r.some((x) =>
        /npm run build\b.*-w @aict\/contracts\b.*-w @aict\/service-kit\b.*-w "\$SERVICE"/.test(x),
      ),
    ).toBe(true);
    expect(r.some((x) => /"\$SERVICE" = "gateway".*npm run build\b.*-w frontends/.test(x))).toBe(
      true,
    );
    // SERVICE is declared after `npm ci`, so the dependency layer is one for all six images.
    const ops = b.instructions.map((i) => `${i.op} ${i.args}`);
    const ci = ops.findIndex((o) => /^RUN .*\bnpm ci\b/.test(o));
    const arg = ops.findIndex((o) => /^ARG SERVICE\b/.test(o));
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(arg).toBeGreaterThan(ci);
  });

  test('when the build context is sent, then .dockerignore leaves out node_modules, dist, .data, .git and .env', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['**/node_modules', '**/dist', '.data', '.git', '.env'])
      expect(ignored).toContain(entry);
  });
});

describe('the runtime: Node 24 LTS everywhere', () => {
  const pinned = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
  const major = Number(pinned.split('.')[0]);

  test('when the version is pinned, then it is an even (LTS) line of 24 or newer', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major).toBeGreaterThanOrEqual(24);
    expect(major % 2).toBe(0);
  });

  test('when the images are built, then every stage starts from the pinned Node major', () => {
    const text = readFileSync(DOCKERFILE, 'utf8');
    const image = /^ARG NODE_IMAGE=node:(\d+)/m.exec(text)?.[1];
    expect(Number(image)).toBe(major);
    expect(text).not.toMatch(/^FROM node:/m); // every stage goes through NODE_IMAGE
  });

  test('when npm reads the engines field, then it asks for the pinned major', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${major}`);
  });

  test('when the test suite runs, then it runs on the pinned Node (the set-up brings it where the machine has an older one)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(major);
  });
});

// ---------------------------------------------------------------------------------------------
// Pinned images: every image the stack pulls is an exact version, on a line deploy/README.md's
// "Pinned images" table lists (with its support status and why it was chosen).

const README = join(ROOT, 'deploy', 'README.md');
const K8S_DIR = join(ROOT, 'deploy', 'k8s');
/** What an operator deploys: the overlays and the data stores (base alone carries `latest`). */
const K8S_RENDERINGS = ['overlays/dev', 'overlays/prod', 'infra'];

interface PinnedRow {
  image: string;
  pinned: string;
  line: string;
}
interface ImageUse {
  where: string;
  ref: string;
}

/** The rows of deploy/README.md's "Pinned images" table: name, `pinned reference`, `line`. */
function pinnedTable(text: string): PinnedRow[] {
  const section = /^## Pinned images\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()))
    .map((cells) => ({
      image: cells[1] ?? '',
      pinned: /`([^`]+)`/.exec(cells[2] ?? '')?.[1] ?? '',
      line: /`([^`]+)`/.exec(cells[3] ?? '')?.[1] ?? '',
    }))
    .filter((row) => row.pinned !== '');
}

/** `registry/name` and the tag of an image reference (the tag empty when there is none). */
function splitRef(ref: string): { repo: string; tag: string } {
  const at = ref.indexOf('@');
  const name = at >= 0 ? ref.slice(0, at) : ref;
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/'))
    return { repo: name.slice(0, colon), tag: name.slice(colon + 1) };
  return { repo: name, tag: '' };
}

/** An exact version: `1.2.3` (with a variant such as `-slim`), a MinIO release stamp, or a digest. */
function isExact(ref: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(ref)) return true;
  const { tag } = splitRef(ref);
  return (
    /^\d+\.\d+\.\d+(-[a-z0-9.]+)*$/.test(tag) ||
    /^RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/.test(tag)
  );
}

/** Our own images (built from the Dockerfile), whatever registry they were pushed to. */
const isProduct = (ref: string) => /(^|\/)aict\/[a-z-]+$/.test(splitRef(ref).repo);

/** What is wrong with the images used, against the table (empty: nothing). */
function imageProblems(uses: ImageUse[], rows: PinnedRow[]): string[] {
  const problems: string[] = [];
  for (const { where, ref } of uses) {
    const { repo, tag } = splitRef(ref);
    if (isProduct(ref)) {
      if (!tag || tag === 'latest')
        problems.push(`${where}: ${ref} has no release tag (set one in the overlay)`);
      continue;
    }
    if (!isExact(ref)) {
      problems.push(`${where}: ${ref} is not pinned to an exact version`);
      continue;
    }
    if (rows.some((row) => row.pinned === ref)) continue;
    const sameImage = rows.filter((row) => splitRef(row.pinned).repo === repo);
    const onLine = sameImage.find((row) => tag === row.line || tag.startsWith(`${row.line}.`));
    if (onLine)
      problems.push(
        `${where}: ${ref} is on line ${onLine.line}, but deploy/README.md pins ${onLine.pinned}: update the table`,
      );
    else if (sameImage.length > 0)
      problems.push(
        `${where}: ${ref} is on a line deploy/README.md does not list (it lists ${sameImage.map((r) => r.line).join(', ')})`,
      );
    else problems.push(`${where}: ${ref} is not in deploy/README.md's table of pinned images`);
  }
  return problems;
}

let kustomize = '';

/** The images of the compose file (with the env file, and with its own defaults), the Dockerfile's base, and the rendered manifests. */
async function imagesUsed(files: {
  compose: string;
  env: string;
  dockerfile: string;
  k8s: string;
}): Promise<ImageUse[]> {
  const uses: ImageUse[] = [];
  const noImageVars = files.env.replace(/^\w+_IMAGE=.*\n/gm, '');
  const composeFile = scratchFile('images-compose.yml', files.compose);
  for (const [label, env] of [
    ['.env.example', files.env],
    ['compose defaults', noImageVars],
  ] as const) {
    const run = await runValidator([
      '-json',
      '-env-file',
      scratchFile('images.env', env),
      composeFile,
    ]);
    if (run.code !== 0) throw new Error(`compose did not resolve: ${run.stderr}`);
    const p = JSON.parse(run.stdout) as ComposeProject;
    for (const [name, s] of Object.entries(p.services))
      if (s.image && !s.build)
        uses.push({ where: `docker-compose.yml (${label}) ${name}`, ref: s.image });
  }
  const nodeImage = /^ARG NODE_IMAGE=(\S+)/m.exec(files.dockerfile)?.[1];
  if (!nodeImage) throw new Error('the Dockerfile has no ARG NODE_IMAGE default');
  uses.push({ where: 'Dockerfile NODE_IMAGE', ref: nodeImage });
  for (const dir of K8S_RENDERINGS) {
    const rendered = await new Promise<string>((done, fail) =>
      execFile(
        kustomize,
        ['build', join(files.k8s, dir)],
        { maxBuffer: 64 * 1024 * 1024 },
        (err, out, errOut) =>
          err ? fail(new Error(`kustomize build ${dir}: ${String(errOut)}`)) : done(String(out)),
      ),
    );
    for (const m of rendered.matchAll(/^\s*(?:-\s+)?image:\s*['"]?([^'"\s]+)/gm))
      uses.push({ where: `deploy/k8s/${dir}`, ref: m[1]! });
  }
  return uses;
}

const realFiles = () => ({
  compose: composeText(),
  env: envExampleText(),
  dockerfile: readFileSync(DOCKERFILE, 'utf8'),
  k8s: K8S_DIR,
});

/** A copy of deploy/k8s in the scratch folder with `file` changed. */
function k8sCopy(file: string, from: string | RegExp, to: string): string {
  const dir = join(scratch, `k8s-${Math.random().toString(36).slice(2)}`);
  cpSync(K8S_DIR, dir, { recursive: true });
  writeFileSync(join(dir, file), mutate(readFileSync(join(dir, file), 'utf8'), from, to));
  return dir;
}

describe('pinned images', () => {
  beforeAll(async () => {
    const binaries = (await import(
      pathToFileURL(join(ROOT, 'infra', 'lib', 'binaries.mjs')).href
    )) as { ensureKustomize: () => Promise<string> };
    kustomize = await binaries.ensureKustomize();
  }, 600_000); // a cold build of kustomize takes ~1.5 min

  const rows = () => pinnedTable(readFileSync(README, 'utf8'));

  test('when deploy/README.md is read, then its table pins RabbitMQ 4.x, MongoDB 8.0, MinIO and Node 24 exactly, each on its line', () => {
    const byRepo = new Map(rows().map((row) => [splitRef(row.pinned).repo, row]));
    expect(byRepo.get('rabbitmq')?.line).toMatch(/^4\.\d+$/);
    expect(byRepo.get('mongo')?.line).toBe('8.0');
    expect(byRepo.get('node')?.line).toBe('24');
    expect(byRepo.get('quay.io/minio/minio')).toBeDefined();
    for (const row of rows()) {
      expect(isExact(row.pinned)).toBe(true);
      const { tag } = splitRef(row.pinned);
      expect(tag === row.line || tag.startsWith(`${row.line}.`)).toBe(true);
    }
  });

  test('when compose, .env.example, the Dockerfile and the rendered manifests are read, then every image is pinned and listed', async () => {
    const uses = await imagesUsed(realFiles());
    const refs = new Set(uses.map((u) => u.ref));
    // Each store in compose (both ways) and in infra, Node in the Dockerfile, the product in the overlays.
    for (const row of rows()) expect(refs).toContain(row.pinned);
    expect(uses.filter((u) => isProduct(u.ref)).length).toBe(12);
    expect(imageProblems(uses, rows())).toEqual([]);
  });

  const mutations: [
    string,
    (f: ReturnType<typeof realFiles>) => ReturnType<typeof realFiles>,
    RegExp,
  ][] = [
    [
      'a compose default on a floating tag',
      (f) => ({ ...f, compose: mutate(f.compose, 'mongo:8.0.20}', 'mongo:8.0}') }),
      /compose defaults\) mongo: mongo:8\.0 is not pinned/,
    ],
    [
      'latest in .env.example',
      (f) => ({
        ...f,
        env: mutate(f.env, /^RABBITMQ_IMAGE=.*$/m, 'RABBITMQ_IMAGE=rabbitmq:latest'),
      }),
      /rabbitmq:latest is not pinned/,
    ],
    [
      'an exact version on a line the table does not list',
      (f) => ({ ...f, env: mutate(f.env, /^MONGO_IMAGE=.*$/m, 'MONGO_IMAGE=mongo:7.0.31') }),
      /mongo:7\.0\.31 is on a line deploy\/README\.md does not list/,
    ],
    [
      'a patch release the table does not name',
      (f) => ({ ...f, env: mutate(f.env, /^MONGO_IMAGE=.*$/m, 'MONGO_IMAGE=mongo:8.0.99') }),
      /mongo:8\.0\.99 is on line 8\.0, but deploy\/README\.md pins mongo:8\.0\.20/,
    ],
    [
      'an image the table does not list',
      (f) => ({
        ...f,
        compose: mutate(
          f.compose,
          /quay\.io\/minio\/minio:RELEASE[^}]+/,
          'bitnami/minio:2025.7.23',
        ),
      }),
      /bitnami\/minio:2025\.7\.23 is not in deploy\/README\.md's table/,
    ],
    [
      'a Node base image on its major only',
      (f) => ({
        ...f,
        dockerfile: mutate(f.dockerfile, /^ARG NODE_IMAGE=.*$/m, 'ARG NODE_IMAGE=node:24-slim'),
      }),
      /Dockerfile NODE_IMAGE: node:24-slim is not pinned/,
    ],
    [
      'a RabbitMQ StatefulSet on a minor tag',
      (f) => ({
        ...f,
        k8s: k8sCopy(
          'infra/rabbitmq.yaml',
          /image: rabbitmq:\S+/,
          'image: rabbitmq:4.3-management',
        ),
      }),
      /deploy\/k8s\/infra: rabbitmq:4\.3-management is not pinned/,
    ],
    [
      'a product image of the latest tag in an overlay',
      (f) => ({
        ...f,
        k8s: k8sCopy('overlays/prod/kustomization.yaml', /newTag: [^,}\s]+/, 'newTag: latest'),
      }),
      /deploy\/k8s\/overlays\/prod: \S+aict\/\w+:latest has no release tag/,
    ],
  ];
  test.each(mutations)(
    'when a copy has %s, then the check fails and names it',
    async (_what, change, message) => {
      const problems = imageProblems(await imagesUsed(change(realFiles())), rows());
      expect(problems.join('\n')).toMatch(message);
    },
  );

  test('when the table loses a row, then the image it pinned is reported wherever it is used', async () => {
    const text = readFileSync(README, 'utf8');
    const without = text.replace(/^\|[^\n]*`mongo:[^\n]*\n/m, '');
    expect(without).not.toBe(text);
    const problems = imageProblems(await imagesUsed(realFiles()), pinnedTable(without));
    expect(
      problems.filter((p) => /mongo:8\.0\.20 is not in deploy\/README\.md's table/.test(p)).length,
    ).toBe(4);
  });
});
