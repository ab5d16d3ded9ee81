/**
 * The Kubernetes manifests (deploy/k8s), checked offline: kustomize renders base, both overlays
 * and infra; kubectl-validate checks every rendered object against the Kubernetes 1.30 API
 * schemas; then the rendered objects are read (through compose-validate -yaml-to-json) for what
 * a cluster operator relies on: each Deployment gets the environment its config schema requires,
 * from ConfigMaps and Secrets, and the values made by deploy/k8s/README.md's commands pass the
 * schema; probes, limits, non-root, read-only root; PDBs, autoscalers, the Ingress; and the
 * NetworkPolicies, evaluated flow by flow.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROCESSES, type ProcessName, ROOT, readConfig } from './config-schemas';

// The machine is shared: a tool run may wait for a core.
jest.setTimeout(60_000);

const K8S = join(ROOT, 'deploy', 'k8s');
const NS = 'aict';
const KUBERNETES_VERSION = '1.30';
const RENDERINGS = {
  base: 'base',
  dev: 'overlays/dev',
  prod: 'overlays/prod',
  infra: 'infra',
} as const;
type Rendering = keyof typeof RENDERINGS;
const APP_RENDERINGS: Rendering[] = ['base', 'dev', 'prod'];
const SERVICES = PROCESSES.filter((p) => p.name !== 'gateway');
/** Given to every service although only some schemas declare it yet: each checks the gateway's signed context. */
const SERVICE_EXTRA_KEYS = new Set(['CONTEXT_PUBLIC_KEY']);
/** Who calls the AI provider on the internet: "Test Connection" and the generations. */
const PROVIDER_CALLERS = ['workspace', 'generation'];

// ---------------------------------------------------------------------------------------------
// Shapes of the rendered objects (the parts read here)

type Labels = Record<string, string>;
interface Meta {
  name: string;
  namespace?: string;
  labels?: Labels;
  annotations?: Record<string, string>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
  spec?: unknown;
  data?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
  };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string }; prefix?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; emptyDir?: object; secret?: { secretName: string } }[];
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    seccompProfile?: { type: string };
  };
  automountServiceAccountToken?: boolean;
}
interface Workload {
  replicas?: number;
  selector: { matchLabels: Labels };
  template: { metadata: { labels: Labels }; spec: PodSpec };
}
interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface PolicyPeer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}
interface PolicySpec {
  podSelector: Selector;
  policyTypes?: ('Ingress' | 'Egress')[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

// ---------------------------------------------------------------------------------------------
// Tools: kustomize, kubectl-validate, and compose-validate for YAML → JSON

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const tools = { kustomize: '', kubectlValidate: '', yaml: '' };
let scratch = '';
const rendered = {} as Record<Rendering, { file: string; run: Run; objects: K8sObject[] }>;

function exec(cmd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      cmd,
      args,
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, ...env },
        cwd: scratch,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** kubectl-validate offline: no cluster (KUBECONFIG=/dev/null), the API schemas of one version. */
const kubectlValidate = (file: string) =>
  exec(tools.kubectlValidate, ['--version', KUBERNETES_VERSION, file], { KUBECONFIG: '/dev/null' });

async function objectsOf(file: string): Promise<K8sObject[]> {
  const run = await exec(tools.yaml, ['-yaml-to-json', file]);
  if (run.code !== 0) throw new Error(`cannot read ${file}: ${run.stderr}`);
  return JSON.parse(run.stdout) as K8sObject[];
}

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
  )) as Record<
    'ensureKustomize' | 'ensureKubectlValidate' | 'ensureComposeValidator',
    () => Promise<string>
  >;
  // One after the other: the machine has two cores, and each Go build uses both.
  tools.kustomize = await binaries.ensureKustomize();
  tools.kubectlValidate = await binaries.ensureKubectlValidate();
  tools.yaml = await binaries.ensureComposeValidator();
  scratch = mkdtempSync(join(tmpdir(), 'aict-k8s-'));
  for (const [name, dir] of Object.entries(RENDERINGS) as [Rendering, string][]) {
    const run = await exec(tools.kustomize, ['build', join(K8S, dir)]);
    const file = scratchFile(`${name}.yaml`, run.stdout);
    rendered[name] = { file, run, objects: run.code === 0 ? await objectsOf(file) : [] };
  }
  // Cold Go builds, cached afterwards: kustomize ~1.5 min, kubectl-validate 4-10 min (by load).
}, 900_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Reading the rendered objects

const objects = (r: Rendering) => rendered[r].objects;
const ofKind = (r: Rendering, kind: string) => objects(r).filter((o) => o.kind === kind);

function find(r: Rendering, kind: string, name: string): K8sObject {
  const o = objects(r).find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${r}: no ${kind} ${name}`);
  return o;
}

const workload = (o: K8sObject) => o.spec as Workload;
const podOf = (o: K8sObject): PodSpec =>
  o.kind === 'Job'
    ? (o.spec as { template: { spec: PodSpec } }).template.spec
    : workload(o).template.spec;

function container(r: Rendering, name: string): Container {
  const c = workload(find(r, 'Deployment', name)).template.spec.containers[0];
  if (!c) throw new Error(`${r}: Deployment ${name} has no container`);
  return c;
}

function matches(selector: Selector | undefined, labels: Labels): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {}))
    if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key] ?? '';
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(value)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(value)
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

interface Provided {
  from: 'value' | 'configMap' | 'secret';
  value?: string;
  ref?: { name: string; key: string; optional?: boolean };
}

/** The environment a container gets: literal values, ConfigMap keys (resolved), Secret references. */
function environmentOf(r: Rendering, c: Container): Map<string, Provided> {
  const env = new Map<string, Provided>();
  for (const from of c.envFrom ?? []) {
    if (from.secretRef) throw new Error(`${c.name}: envFrom secretRef hides which keys it gets`);
    const cm = find(r, 'ConfigMap', from.configMapRef?.name ?? '');
    for (const [k, v] of Object.entries(cm.data ?? {}))
      env.set(`${from.prefix ?? ''}${k}`, { from: 'configMap', value: v });
  }
  for (const e of c.env ?? []) {
    if (e.valueFrom?.secretKeyRef)
      env.set(e.name, { from: 'secret', ref: e.valueFrom.secretKeyRef });
    else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      env.set(e.name, { from: 'configMap', value: find(r, 'ConfigMap', ref.name).data?.[ref.key] });
    } else env.set(e.name, { from: 'value', value: e.value ?? '' });
  }
  return env;
}

/** Required keys of `config` that `env` does not surely provide (an optional Secret key may be absent). */
function missingKeys(env: Map<string, Provided>, required: string[]): string[] {
  return required.filter((k) => {
    const p = env.get(k);
    if (!p) return true;
    if (p.from === 'secret') return p.ref?.optional === true;
    return p.value === undefined || p.value === '';
  });
}

/** "250m" → 0.25, "512Mi" → 536870912, "2" → 2. */
function quantity(q: string): number {
  const m = /^([0-9.]+)(m|k|Ki|M|Mi|G|Gi)?$/.exec(q);
  if (!m) throw new Error(`not a quantity: ${q}`);
  const unit: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    Ki: 1024,
    M: 1e6,
    Mi: 1024 ** 2,
    G: 1e9,
    Gi: 1024 ** 3,
  };
  return Number(m[1]) * (unit[m[2] ?? ''] ?? NaN);
}

// ---------------------------------------------------------------------------------------------

describe('rendering and validation', () => {
  test.each(Object.keys(RENDERINGS) as Rendering[])(
    'when %s is built with kustomize and checked by kubectl-validate, then every object is valid',
    async (r) => {
      expect(rendered[r].run.stderr).toBe('');
      expect(rendered[r].run.code).toBe(0);
      expect(objects(r).length).toBeGreaterThan(5);
      const run = await kubectlValidate(rendered[r].file);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/error|invalid/i);
      expect(run.code).toBe(0);
      for (const o of objects(r))
        expect([o.kind, o.metadata.name, o.metadata.namespace]).toEqual([
          o.kind,
          o.metadata.name,
          o.kind === 'Namespace' ? undefined : NS,
        ]);
    },
    60_000,
  );

  const wrong: [string, string | RegExp, string, RegExp][] = [
    ['an unknown field', 'readinessProbe:', 'readinessProbes:', /readinessProbes/],
    ['a wrong type', /replicas: 3$/m, 'replicas: three', /replicas/],
    [
      'an API version the cluster no longer serves',
      /^apiVersion: policy\/v1$/m,
      'apiVersion: policy/v1beta1',
      /policy\/v1beta1/,
    ],
  ];
  test.each(wrong)(
    'when a rendered copy has %s, then kubectl-validate refuses it and names the field',
    async (_what, from, to, field) => {
      const file = scratchFile(
        'wrong.yaml',
        mutate(readFileSync(rendered.prod.file, 'utf8'), from, to),
      );
      const run = await kubectlValidate(file);
      expect(run.code).not.toBe(0);
      expect(`${run.stdout}${run.stderr}`).toMatch(field);
    },
    60_000,
  );

  test('when a kustomization names a resource that does not exist, then kustomize fails', async () => {
    const dir = mkdtempSync(join(scratch, 'kust-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
    const run = await exec(tools.kustomize, ['build', dir]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('missing.yaml');
  });

  test('when base and infra are applied together, then they share the namespace and no name clashes', () => {
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    const base = new Set(objects('base').map(key));
    const clashes = objects('infra')
      .map(key)
      .filter((k) => base.has(k) && k !== `Namespace/${NS}`);
    expect(clashes).toEqual([]);
    expect(find('infra', 'Namespace', NS)).toEqual(find('base', 'Namespace', NS));
    expect(
      find('base', 'Namespace', NS).metadata.labels?.['pod-security.kubernetes.io/enforce'],
    ).toBe('restricted');
  });
});

// ---------------------------------------------------------------------------------------------

const configs = new Map(PROCESSES.map((p) => [p.name, readConfig(p.dir)]));
const config = (name: ProcessName) => {
  const c = configs.get(name);
  if (!c) throw new Error(`no config for ${name}`);
  return c;
};
const cases = APP_RENDERINGS.flatMap((r) =>
  PROCESSES.map((p) => [r, p.name, config(p.name).source] as const),
);

describe('the environment of each Deployment', () => {
  test.each(cases)(
    'when %s runs %s, then every variable %s requires is provided, and none it does not declare',
    (r, name) => {
      const env = environmentOf(r, container(r, name));
      expect(missingKeys(env, config(name).required)).toEqual([]);
      const extra = [...env.keys()].filter(
        (k) => !config(name).declared.has(k) && !(name !== 'gateway' && SERVICE_EXTRA_KEYS.has(k)),
      );
      expect(extra).toEqual([]);
    },
  );

  test('when a Deployment lacks a required variable, then the check reports it', () => {
    const c = structuredClone(container('prod', 'content'));
    c.env = (c.env ?? []).filter((e) => e.name !== 'MONGO_URL');
    expect(missingKeys(environmentOf('prod', c), config('content').required)).toEqual([
      'MONGO_URL',
    ]);
    // An optional Secret key does not count for a required variable.
    const d = structuredClone(container('prod', 'content'));
    for (const e of d.env ?? [])
      if (e.valueFrom?.secretKeyRef && e.name === 'AMQP_URL')
        e.valueFrom.secretKeyRef.optional = true;
    expect(missingKeys(environmentOf('prod', d), config('content').required)).toEqual(['AMQP_URL']);
  });

  const SENSITIVE = /KEY|SECRET|PASSWORD|TOKEN|COOKIE|^MONGO_URL$|^AMQP_URL$|^SUPERADMIN_/;
  test.each(cases)(
    'when %s runs %s, then its credentials and keys come from Secrets by reference',
    (r, name) => {
      const env = environmentOf(r, container(r, name));
      const plain = [...env]
        .filter(([k, p]) => SENSITIVE.test(k) && p.from !== 'secret')
        .map(([k]) => k);
      expect(plain).toEqual([]);
      // Least privilege: the signing keys stay with their signer, the encryption key with workspace.
      const refs = [...env.values()].flatMap((p) => (p.ref ? [`${p.ref.name}/${p.ref.key}`] : []));
      if (name !== 'auth') expect(refs).not.toContain('aict-auth/JWT_PRIVATE_KEY');
      if (name !== 'gateway') expect(refs).not.toContain('aict-gateway/CONTEXT_PRIVATE_KEY');
      if (name !== 'workspace')
        expect(refs).not.toContain('aict-workspace/SETTINGS_ENCRYPTION_KEY');
      expect(
        refs.filter(
          (ref) =>
            /^aict-(auth|workspace|prompt|content|generation|gateway)\//.test(ref) &&
            !ref.startsWith(`aict-${name}/`),
        ),
      ).toEqual([]);
    },
  );

  test.each(APP_RENDERINGS)(
    'when %s is rendered, then the processes find each other: PORT, Services, bucket, gateway URLs',
    (r) => {
      for (const p of PROCESSES) {
        const env = environmentOf(r, container(r, p.name));
        expect([p.name, env.get('PORT')?.value]).toEqual([p.name, String(p.port)]);
        expect(container(r, p.name).ports).toEqual([
          { name: 'http', containerPort: p.port, protocol: 'TCP' },
        ]);
        const svc = find(r, 'Service', p.name).spec as {
          selector: Labels;
          ports: { port: number; targetPort: string }[];
        };
        expect(svc.ports.map((x) => [x.port, x.targetPort])).toEqual([[p.port, 'http']]);
        expect(
          matches(
            { matchLabels: svc.selector },
            workload(find(r, 'Deployment', p.name)).template.metadata.labels,
          ),
        ).toBe(true);
        if (config(p.name).declared.has('MINIO_BUCKET')) {
          expect(env.get('MINIO_BUCKET')?.value).toBe(`aict-${p.name}`);
          expect(env.get('MINIO_ENDPOINT')?.value).toBe('http://minio:9000');
        }
      }
      const gw = environmentOf(r, container(r, 'gateway'));
      for (const s of SERVICES)
        expect(gw.get(`${s.name.toUpperCase()}_SERVICE_URL`)?.value).toBe(
          `http://${s.name}:${s.port}`,
        );
      expect(gw.get('STATIC_DIR')?.value).toBe('/app/frontends');
    },
  );
});

// ---------------------------------------------------------------------------------------------

describe('each Deployment: probes, resources, security', () => {
  test.each(cases)(
    'when %s runs %s, then it has probes, requests and limits, and runs locked down',
    (r, name) => {
      const d = find(r, 'Deployment', name);
      const pod = podOf(d);
      const c = container(r, name);
      expect(pod.containers).toHaveLength(1);
      // Probes: ready on /readyz, alive on /healthz, on the container's own port.
      expect(c.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(c.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(c.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // Requests and limits for CPU and memory, requests within limits.
      for (const res of ['cpu', 'memory']) {
        const req = c.resources?.requests?.[res];
        const lim = c.resources?.limits?.[res];
        expect([res, typeof req, typeof lim]).toEqual([res, 'string', 'string']);
        expect(quantity(req ?? '')).toBeLessThanOrEqual(quantity(lim ?? ''));
      }
      // Non-root, read-only root, no escalation, no capabilities, default seccomp.
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(c.securityContext).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(c.securityContext?.capabilities?.add).toBeUndefined();
      expect(c.securityContext?.privileged).toBeUndefined();
      // The one writable place: /tmp on an emptyDir.
      const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
    },
  );

  test('when a Deployment is checked, then a privileged or writable copy would not pass', () => {
    const c = structuredClone(container('prod', 'auth'));
    c.securityContext = { ...c.securityContext, readOnlyRootFilesystem: false };
    expect(() =>
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true }),
    ).toThrow();
  });

  test.each(APP_RENDERINGS)(
    'when %s is rendered, then each Deployment has a PodDisruptionBudget that never blocks a drain',
    (r) => {
      for (const p of PROCESSES) {
        const labels = workload(find(r, 'Deployment', p.name)).template.metadata.labels;
        const pdbs = ofKind(r, 'PodDisruptionBudget').filter((b) =>
          matches((b.spec as { selector: Selector }).selector, labels),
        );
        expect([
          p.name,
          pdbs.map((b) => (b.spec as { maxUnavailable?: number }).maxUnavailable),
        ]).toEqual([p.name, [1]]);
      }
    },
  );

  test.each(APP_RENDERINGS)(
    'when %s is rendered, then only the gateway and the generation service autoscale',
    (r) => {
      const hpas = ofKind(r, 'HorizontalPodAutoscaler').map((h) => {
        const spec = h.spec as {
          scaleTargetRef: { kind: string; name: string };
          minReplicas: number;
          maxReplicas: number;
        };
        expect(spec.minReplicas).toBeLessThanOrEqual(spec.maxReplicas);
        find(r, spec.scaleTargetRef.kind, spec.scaleTargetRef.name);
        return spec.scaleTargetRef.name;
      });
      expect(hpas.sort()).toEqual(['gateway', 'generation']);
    },
  );

  test.each(APP_RENDERINGS)(
    'when %s is rendered, then the Ingress leads to the gateway only',
    (r) => {
      const ingresses = ofKind(r, 'Ingress');
      expect(ingresses).toHaveLength(1);
      const spec = ingresses[0]?.spec as {
        defaultBackend?: unknown;
        rules: {
          host: string;
          http: {
            paths: {
              path: string;
              backend: { service: { name: string; port: { name: string } } };
            }[];
          };
        }[];
      };
      expect(spec.defaultBackend).toBeUndefined();
      const backends = spec.rules.flatMap((rule) =>
        rule.http.paths.map((p) => [p.path, p.backend.service.name, p.backend.service.port.name]),
      );
      expect(backends).toEqual([['/', 'gateway', 'http']]);
    },
  );

  test('when the overlays are rendered, then they set replicas, resources, image tags and the host', () => {
    const hostOf = (r: Rendering) =>
      ofKind(r, 'Ingress')[0]?.spec as {
        rules: { host: string }[];
        tls?: { hosts: string[]; secretName: string }[];
      };
    expect(hostOf('dev').rules[0]?.host).toBe('aict.dev.example.test');
    expect(hostOf('prod').rules[0]?.host).toBe('aict.example.com');
    expect(hostOf('prod').tls).toEqual([{ hosts: ['aict.example.com'], secretName: 'aict-tls' }]);
    for (const p of PROCESSES) {
      expect([p.name, workload(find('dev', 'Deployment', p.name)).replicas]).toEqual([p.name, 1]);
      expect([p.name, workload(find('prod', 'Deployment', p.name)).replicas]).toEqual([p.name, 3]);
      expect(container('base', p.name).image).toBe(`aict/${p.name}:latest`);
      expect(container('dev', p.name).image).toBe(`registry.example.com/aict/${p.name}:dev`);
      expect(container('prod', p.name).image).toBe(`registry.example.com/aict/${p.name}:1.0.0`);
      const mem = (r: Rendering) =>
        quantity(container(r, p.name).resources?.requests?.memory ?? '');
      expect(mem('dev')).toBeLessThan(mem('base'));
      expect(mem('prod')).toBeGreaterThanOrEqual(mem('base'));
    }
    expect(
      quantity(container('prod', 'generation').resources?.limits?.memory ?? ''),
    ).toBeGreaterThan(quantity(container('base', 'generation').resources?.limits?.memory ?? ''));
  });
});

// ---------------------------------------------------------------------------------------------
// Secrets: none in the manifests; every reference documented; the documented commands work

/** The Secret table of deploy/k8s/README.md: `name/key` of each row. */
function documentedSecretKeys(): string[] {
  const text = readFileSync(join(K8S, 'README.md'), 'utf8');
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`(aict-[a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    for (const m of (cells[2] ?? '').matchAll(/`([A-Za-z_.]+)`/g)) out.push(`${name}/${m[1]}`);
  }
  return out;
}

/** Every Secret key the renderings reference (env secretKeyRef, secret volumes, Ingress TLS). */
function referencedSecretKeys(): string[] {
  const refs = new Set<string>();
  for (const r of Object.keys(RENDERINGS) as Rendering[]) {
    for (const o of objects(r)) {
      if (['Deployment', 'StatefulSet', 'Job'].includes(o.kind)) {
        const pod = podOf(o);
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          for (const e of c.env ?? []) {
            const ref = e.valueFrom?.secretKeyRef;
            if (ref) refs.add(`${ref.name}/${ref.key}`);
          }
        }
        for (const v of pod.volumes ?? []) {
          const s = v.secret as { secretName: string; items?: { key: string }[] } | undefined;
          for (const item of s?.items ?? []) refs.add(`${s?.secretName}/${item.key}`);
        }
      }
      if (o.kind === 'Ingress') {
        for (const t of (o.spec as { tls?: { secretName: string }[] }).tls ?? []) {
          refs.add(`${t.secretName}/tls.crt`);
          refs.add(`${t.secretName}/tls.key`);
        }
      }
    }
  }
  return [...refs].sort();
}

let readmeSecrets: ReturnType<typeof runReadmeSecrets> | undefined;
/** The Secrets that deploy/k8s/README.md's commands create (run once). */
const secretsFromReadme = () => (readmeSecrets ??= runReadmeSecrets());

/** Runs the "Creating them" block of deploy/k8s/README.md with a kubectl that records what it is asked. */
async function runReadmeSecrets(): Promise<{
  namespaces: string[];
  secrets: Map<string, Record<string, string>>;
}> {
  const text = readFileSync(join(K8S, 'README.md'), 'utf8');
  const block = /### Creating them[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('deploy/k8s/README.md has no "### Creating them" sh block');
  const dir = mkdtempSync(join(scratch, 'secrets-'));
  const bin = join(dir, 'bin');
  const work = join(dir, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  const log = join(dir, 'kubectl.log');
  // A stand-in kubectl: records each call's arguments, and the content of --from-file files
  // (the script deletes them at the end).
  writeFileSync(
    join(bin, 'kubectl'),
    `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const files = {};
for (const a of args) {
  const m = /^--from-file=([^=]+)=(.*)$/.exec(a);
  if (m) files[m[1]] = fs.readFileSync(m[2], 'utf8');
}
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, files }) + '\\n');
`,
  );
  chmodSync(join(bin, 'kubectl'), 0o755);
  const script = join(dir, 'create-secrets.sh');
  writeFileSync(script, `set -euo pipefail\ncd ${JSON.stringify(work)}\n${block}`);
  const run = await exec('bash', [script], {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  });
  if (run.code !== 0) throw new Error(`the README's commands failed:\n${run.stderr}`);
  const left = readdirSync(work);
  if (left.length > 0)
    throw new Error(`the README's commands leave files behind: ${left.join(', ')}`);
  const namespaces: string[] = [];
  const secrets = new Map<string, Record<string, string>>();
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const { args, files } = JSON.parse(line) as { args: string[]; files: Record<string, string> };
    const at = args.indexOf('generic');
    if (at < 2 || args[at - 2] !== 'create' || args[at - 1] !== 'secret') continue;
    const n = args.indexOf('-n');
    namespaces.push(n >= 0 ? (args[n + 1] ?? '') : '');
    const data: Record<string, string> = { ...files };
    for (const a of args) {
      const m = /^--from-literal=([^=]+)=([\s\S]*)$/.exec(a);
      if (m?.[1]) data[m[1]] = m[2] ?? '';
    }
    secrets.set(args[at + 1] ?? '', data);
  }
  return { namespaces, secrets };
}

describe('secrets', () => {
  test('when every rendering is read, then it holds no Secret and no secret value', () => {
    for (const r of Object.keys(RENDERINGS) as Rendering[]) {
      expect([r, ofKind(r, 'Secret').length]).toEqual([r, 0]);
      for (const cm of ofKind(r, 'ConfigMap')) {
        for (const [k, v] of Object.entries(cm.data ?? {})) {
          expect([cm.metadata.name, k, v]).not.toEqual([
            cm.metadata.name,
            k,
            expect.stringMatching(/-----BEGIN|PRIVATE KEY/),
          ]);
          // No credentials in a URL (user:password@).
          expect([cm.metadata.name, k, v]).not.toEqual([
            cm.metadata.name,
            k,
            expect.stringMatching(/:\/\/[^/\s:@]+:[^/\s@]+@/),
          ]);
        }
      }
    }
  });

  test('when the manifest files are read, then none has key material or a Secret object', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.ya?ml$/.test(f)) files.push(p);
      }
    };
    walk(K8S);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect([
        f,
        /-----BEGIN/.test(text),
        /^kind:\s*Secret\b/m.test(text),
        /secretGenerator:/.test(text),
      ]).toEqual([f, false, false, false]);
    }
  });

  test('when the manifests reference a Secret key, then deploy/k8s/README.md documents it, and documents no other', () => {
    expect(documentedSecretKeys().sort()).toEqual(referencedSecretKeys());
  });

  test('when the commands of deploy/k8s/README.md are run, then they create every referenced Secret key in the namespace', async () => {
    const { namespaces, secrets } = await secretsFromReadme();
    expect(new Set(namespaces)).toEqual(new Set([NS]));
    const created = [...secrets].flatMap(([name, data]) =>
      Object.keys(data).map((k) => `${name}/${k}`),
    );
    expect(created.sort()).toEqual(
      referencedSecretKeys().filter((k) => !k.startsWith('aict-tls/')),
    );
  }, 60_000);

  test.each(PROCESSES.map((p) => [p.name, config(p.name).source] as const))(
    'when %s starts with the prod ConfigMaps and the Secrets the README makes, then %s accepts the environment',
    async (name, source) => {
      const { secrets } = await secretsFromReadme();
      const env: Record<string, string> = {};
      for (const [k, p] of environmentOf('prod', container('prod', name))) {
        if (p.from !== 'secret') env[k] = p.value ?? '';
        else {
          const value = secrets.get(p.ref?.name ?? '')?.[p.ref?.key ?? ''];
          if (value !== undefined) env[k] = value;
        }
      }
      const mod = (await import(join(ROOT, source))) as {
        configSchema: {
          safeParse: (v: unknown) => { success: boolean; error?: { issues: unknown[] } };
        };
      };
      const result = mod.configSchema.safeParse(env);
      expect(result.error?.issues ?? []).toEqual([]);
      expect(result.success).toBe(true);
      // The AMQP user and password are the ones RabbitMQ is given.
      const amqp = new URL(env.AMQP_URL ?? '');
      expect([amqp.username, amqp.password, amqp.host, amqp.pathname]).toEqual([
        secrets.get('aict-rabbitmq')?.RABBITMQ_DEFAULT_USER,
        secrets.get('aict-rabbitmq')?.RABBITMQ_DEFAULT_PASS,
        'rabbitmq:5672',
        '/aict',
      ]);
    },
    60_000,
  );
});

// ---------------------------------------------------------------------------------------------
// NetworkPolicies, evaluated flow by flow

interface Endpoint {
  name: string;
  /** Undefined for an address outside the cluster. */
  namespace?: string;
  labels: Labels;
  ip: string;
  ports: Record<string, number>;
}

function ipInCidr(ip: string, cidr: string): boolean {
  const toInt = (a: string) => a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  const [base = '', bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toInt(ip) / size) === Math.floor(toInt(base) / size);
}

function peerMatches(peer: PolicyPeer, ep: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock)
    return (
      ipInCidr(ep.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c) => ipInCidr(ep.ip, c))
    );
  if (ep.namespace === undefined) return false;
  if (peer.namespaceSelector) {
    if (!matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': ep.namespace }))
      return false;
    return matches(peer.podSelector, ep.labels);
  }
  return ep.namespace === policyNamespace && matches(peer.podSelector, ep.labels);
}

function portMatches(rule: PolicyRule, port: number, protocol: string, target: Endpoint): boolean {
  if (!rule.ports || rule.ports.length === 0) return true;
  return rule.ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    const number = typeof p.port === 'number' ? p.port : target.ports[p.port];
    return (
      number === port ||
      (p.endPort !== undefined && number !== undefined && port >= number && port <= p.endPort)
    );
  });
}

/** Whether the policies let `subject` send (Egress) to or take (Ingress) from `peer`. */
function sideAllows(
  policies: K8sObject[],
  type: 'Ingress' | 'Egress',
  subject: Endpoint,
  peer: Endpoint,
  port: number,
  protocol: string,
): boolean {
  if (subject.namespace !== NS) return true; // not ours to decide
  const applying = policies.filter((p) => {
    const spec = p.spec as PolicySpec;
    return (
      (spec.policyTypes ?? ['Ingress']).includes(type) && matches(spec.podSelector, subject.labels)
    );
  });
  if (applying.length === 0) return true;
  const target = type === 'Ingress' ? subject : peer;
  return applying.some((p) => {
    const spec = p.spec as PolicySpec;
    const rules = (type === 'Ingress' ? spec.ingress : spec.egress) ?? [];
    return rules.some((rule) => {
      const peers = type === 'Ingress' ? rule.from : rule.to;
      return (
        (!peers || peers.length === 0 || peers.some((x) => peerMatches(x, peer, NS))) &&
        portMatches(rule, port, protocol, target)
      );
    });
  });
}

const flowAllowed = (
  policies: K8sObject[],
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol = 'TCP',
) =>
  sideAllows(policies, 'Egress', from, to, port, protocol) &&
  sideAllows(policies, 'Ingress', to, from, port, protocol);

/** The pods of the renderings (Deployments, StatefulSets, Jobs), by their name label. */
function podsOf(list: K8sObject[]): Endpoint[] {
  return list
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
    .map((o, i) => {
      const pod = podOf(o);
      const labels = (
        o.kind === 'Job'
          ? (o.spec as { template: { metadata: { labels: Labels } } }).template
          : workload(o).template
      ).metadata.labels;
      const ports: Record<string, number> = {};
      for (const c of pod.containers)
        for (const p of c.ports ?? []) ports[p.name ?? String(p.containerPort)] = p.containerPort;
      return {
        name: labels['app.kubernetes.io/name'] ?? o.metadata.name,
        namespace: NS,
        labels,
        ip: `10.244.0.${i + 10}`,
        ports,
      };
    });
}

const OUTSIDERS: Endpoint[] = [
  {
    name: 'ingress-controller',
    namespace: 'ingress-nginx',
    labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
    ip: '10.244.1.5',
    ports: { http: 80 },
  },
  {
    name: 'other-namespace',
    namespace: 'default',
    labels: { app: 'curious' },
    ip: '10.244.2.7',
    ports: { http: 8080 },
  },
  {
    name: 'kube-dns',
    namespace: 'kube-system',
    labels: { 'k8s-app': 'kube-dns' },
    ip: '10.96.0.10',
    ports: { dns: 53 },
  },
  { name: 'internet', labels: {}, ip: '203.0.113.10', ports: { https: 443, http: 80 } },
  { name: 'private-network', labels: {}, ip: '10.20.30.40', ports: { https: 443, postgres: 5432 } },
];

/** Who uses a data store: the processes whose config schema declares its variable. */
const usersOf = (variable: string) =>
  PROCESSES.filter((p) => config(p.name).declared.has(variable)).map((p) => p.name as string);

function expectedFlow(from: Endpoint, to: Endpoint, port: number, protocol: string): boolean {
  const src = from.name;
  if (to.name === 'kube-dns') return from.namespace === NS && port === 53;
  if (to.name === 'internet')
    return PROVIDER_CALLERS.includes(src) && (port === 443 || port === 80);
  if (protocol !== 'TCP') return false;
  if (to.name === 'gateway') return src === 'ingress-controller' && port === 8080;
  const service = SERVICES.find((s) => s.name === to.name);
  if (service) return src === 'gateway' && port === service.port;
  if (to.name === 'mongodb')
    return port === 27017 && [...usersOf('MONGO_URL'), 'mongodb', 'mongodb-init'].includes(src);
  if (to.name === 'minio') return port === 9000 && usersOf('MINIO_ENDPOINT').includes(src);
  if (to.name === 'rabbitmq')
    return (
      (port === 5672 && usersOf('AMQP_URL').includes(src)) ||
      (src === 'rabbitmq' && [4369, 25672].includes(port))
    );
  return false;
}

/** Every flow whose outcome differs from the intended one, as "from → to:port/proto allowed|denied". */
function policyViolations(list: K8sObject[]): string[] {
  const policies = list.filter((o) => o.kind === 'NetworkPolicy');
  const pods = podsOf(list);
  const out: string[] = [];
  for (const from of [...pods, ...OUTSIDERS.filter((o) => o.namespace && o.name !== 'kube-dns')]) {
    for (const to of [...pods, ...OUTSIDERS]) {
      if (from.namespace !== NS && to.namespace !== NS) continue;
      for (const port of new Set(Object.values(to.ports))) {
        for (const protocol of to.name === 'kube-dns' ? ['UDP', 'TCP'] : ['TCP']) {
          const got = flowAllowed(policies, from, to, port, protocol);
          if (got !== expectedFlow(from, to, port, protocol))
            out.push(`${from.name} → ${to.name}:${port}/${protocol} ${got ? 'allowed' : 'denied'}`);
        }
      }
    }
  }
  return out;
}

describe('NetworkPolicies', () => {
  test('when the config schemas are read, then the data stores have the users the policies are checked against', () => {
    expect(usersOf('MONGO_URL').sort()).toEqual([
      'auth',
      'content',
      'generation',
      'prompt',
      'workspace',
    ]);
    expect(usersOf('MINIO_ENDPOINT').sort()).toEqual([
      'content',
      'generation',
      'prompt',
      'workspace',
    ]);
    expect(usersOf('AMQP_URL').sort()).toEqual([
      'auth',
      'content',
      'gateway',
      'generation',
      'prompt',
      'workspace',
    ]);
  });

  test.each(APP_RENDERINGS)(
    'when %s is applied with infra, then every flow is as intended: only the ingress controller reaches the gateway, only the gateway the services, each data store only its users',
    (r) => {
      const all = [...objects(r), ...objects('infra')];
      expect(
        podsOf(all)
          .map((p) => p.name)
          .sort(),
      ).toEqual([
        'auth',
        'content',
        'gateway',
        'generation',
        'minio',
        'mongodb',
        'mongodb-init',
        'prompt',
        'rabbitmq',
        'workspace',
      ]);
      expect(policyViolations(all)).toEqual([]);
    },
  );

  test('when the namespace has a default deny, then it covers every pod for ingress and egress', () => {
    const deny = find('base', 'NetworkPolicy', 'default-deny').spec as PolicySpec;
    expect(deny).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  });

  test('when the gateway admits any namespace, or every pod may reach the internet, then the evaluation reports the new flows', () => {
    const all = structuredClone([...objects('prod'), ...objects('infra')]);
    const policy = (name: string) => {
      const p = all.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === name);
      if (!p) throw new Error(`no NetworkPolicy ${name}`);
      return p.spec as PolicySpec;
    };
    const gatewayRule = policy('gateway').ingress?.[0];
    if (gatewayRule) gatewayRule.from = [{ namespaceSelector: {} }];
    policy('ai-provider-egress').podSelector = {};
    const v = policyViolations(all);
    expect(v).toContain('other-namespace → gateway:8080/TCP allowed');
    expect(v).toContain('content → internet:443/TCP allowed');
    expect(v).toContain('mongodb → internet:443/TCP allowed');
    expect(v).not.toContain('other-namespace → content:4104/TCP allowed');
  });

  test('when the MinIO policy admits a service that has no bucket, then the evaluation reports it', () => {
    const all = structuredClone([...objects('prod'), ...objects('infra')]);
    const minio = all.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'minio');
    const rule = (minio?.spec as PolicySpec).ingress?.[0]?.from?.[0]?.podSelector
      ?.matchExpressions?.[0];
    rule?.values?.push('auth');
    // auth also needs an egress rule to reach it; give it one
    const auth = all.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'auth');
    (auth?.spec as PolicySpec).egress?.push({
      to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'minio' } } }],
    });
    expect(policyViolations(all)).toEqual(['auth → minio:9000/TCP allowed']);
  });
});
