// Layer rules, checked by `npm run depcruise` (part of `npm run lint`, so of `npm test`).
// STYLE.md: a service is routes → domain → data (presenters serve the entry points);
// front-end features never import each other and a remote never imports another remote;
// the shared packages import no service, gateway or front-end.

/** Entry points of a service: where a request or a message comes in. */
const ENTRY = '^services/[^/]+/src/(routes|events|rpc|http|jobs)/';
/** Outbound adapters beside the entry points (`rpc/<service>.client.ts`): the domain may use them. */
const OUTBOUND = '^services/[^/]+/src/rpc/[^/]+[.]client[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-entry-points',
      comment:
        'Domain code is called by routes, consumers and responders; it never imports them (routes → domain → data).',
      severity: 'error',
      from: { path: '^services/[^/]+/src/domain/' },
      to: { path: ENTRY, pathNot: OUTBOUND },
    },
    {
      name: 'domain-not-to-presenters',
      comment:
        'Use cases return records or view data; the entry point presents them (validate → authorise → command → present).',
      severity: 'error',
      from: { path: '^services/[^/]+/src/domain/' },
      to: { path: '^services/[^/]+/src/presenters/' },
    },
    {
      name: 'data-not-to-upper-layers',
      comment: 'Data access knows nothing of the domain, the presenters or the entry points.',
      severity: 'error',
      from: { path: '^services/[^/]+/src/data/' },
      to: { path: ['^services/[^/]+/src/(domain|presenters)/', ENTRY] },
    },
    {
      name: 'presenters-not-to-upper-layers',
      comment:
        'A presenter turns a record or view data into a response; it may name the view types a use case returns, but calls no use case and no route.',
      severity: 'error',
      from: { path: '^services/[^/]+/src/presenters/' },
      to: {
        path: ['^services/[^/]+/src/domain/', ENTRY],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-cross-service-imports',
      comment: 'Services talk over HTTP and messages; what they share lives in packages/.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^(services|gateway)/', pathNot: '^services/$1/' },
    },
    {
      name: 'no-cross-feature-imports',
      comment:
        'Features never import each other (bulletproof-react): shared code goes to src/lib or @aict/web-kit.',
      severity: 'error',
      from: { path: '^frontends/([^/]+)/src/features/([^/]+)/' },
      to: {
        path: '^frontends/[^/]+/src/features/',
        pathNot: '^frontends/$1/src/features/$2/',
      },
    },
    {
      name: 'no-remote-to-remote-imports',
      comment:
        'A front-end never imports another front-end; the shell mounts remotes through Module Federation.',
      severity: 'error',
      from: { path: '^frontends/([^/]+)/' },
      to: { path: '^frontends/[^/]+/', pathNot: '^frontends/$1/' },
    },
    {
      name: 'packages-not-to-apps',
      comment: 'Shared packages import no service, gateway or front-end.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|gateway|frontends)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|@mf-types|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'types', 'import', 'require', 'node', 'default'],
      mainFields: ['types', 'main'],
      extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
