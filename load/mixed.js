// k6 load: sign-in, browsing (prompts, history pages, stats, search), chat and text
// generation, image generation and uploads, each at a constant arrival rate against the
// stack that `npm start` serves (run through load/run.mjs, which prepares users and
// workspaces and points the product at the provider simulator with a realistic latency).
//
// Every virtual user signs in once, as its own user (LOAD_USERS: one per VU), and works in
// that user's workspace; several workspaces take load at once.
//
// Each scenario's rate ramps from 0 over LOAD_RAMP (10 s) before it holds for LOAD_DURATION:
// a virtual user signs in at its first iteration, and a sign-in costs 80-100 ms of CPU
// (scrypt, N=2^15, r=8; bench/memory's load row prints it), so ~30 users signing in within the
// first second queue for over a second on two cores and every request behind them waits too.
// Ramped, the sign-ins spread over the first seconds as the virtual users are first needed.
import http from 'k6/http';
import { check, fail } from 'k6';
import { SharedArray } from 'k6/data';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const DURATION = __ENV.LOAD_DURATION || '30s';
const RAMP = __ENV.LOAD_RAMP || '10s';
const SCALE = Number(__ENV.LOAD_SCALE || 1);

const users = new SharedArray('users', () => JSON.parse(open(__ENV.LOAD_USERS_FILE)));

const rate = (perSecond) => Math.max(1, Math.round(perSecond * SCALE));

function scenario(exec, perSecond, preAllocatedVUs, maxVUs, timeUnit = '1s') {
  const target = rate(perSecond);
  return {
    executor: 'ramping-arrival-rate',
    exec,
    startRate: 0,
    timeUnit,
    stages: [
      { duration: RAMP, target },
      { duration: DURATION, target },
    ],
    preAllocatedVUs,
    maxVUs,
  };
}

export const options = {
  // Each virtual user signs in once and keeps its session cookie across iterations.
  noCookiesReset: true,
  scenarios: {
    // Users allocated up front: enough for each rate times its slowest iterations seen here
    // (an iteration without a free user is dropped): browse 5 calls, up to ~1.2 s at 8/s;
    // chat 2 calls, up to 3.5 s at 2/s. At most 64 users in all (LOAD_USERS).
    browse: scenario('browse', 8, 16, 20),
    chat: scenario('chat', 2, 12, 16),
    text: scenario('textGeneration', 1, 6, 10),
    image: scenario('imageGeneration', 1, 4, 10, '2s'),
    upload: scenario('upload', 1, 4, 8),
  },
  thresholds: {
    'http_req_duration{kind:browse}': ['p(95)<300'],
    'http_req_duration{kind:chat}': ['p(95)<3000'],
    'http_req_duration{kind:text}': ['p(95)<3000'],
    'http_req_duration{kind:image}': ['p(95)<3000'],
    'http_req_duration{kind:upload}': ['p(95)<1000'],
    'http_req_duration{kind:sign-in}': ['p(95)<1000'],
    http_req_failed: ['rate<0.001'],
    checks: ['rate>0.999'],
    // per scenario, so that a crossed one names the scenario that ran out of users
    ...Object.fromEntries(
      ['browse', 'chat', 'text', 'image', 'upload'].map((name) => [
        `dropped_iterations{scenario:${name}}`,
        ['count==0'],
      ]),
    ),
  },
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

// Per-VU state: each VU is one person, signed in once.
let me = null;

function signIn() {
  if (me) return me;
  const user = users[(__VU - 1) % users.length];
  const res = http.post(
    `${BASE}/api/login`,
    JSON.stringify({ username: user.username, password: user.password }),
    { headers: { 'Content-Type': 'application/json' }, tags: { kind: 'sign-in' } },
  );
  if (!check(res, { 'signed in': (r) => r.status === 200 })) fail(`sign-in ${res.status}`);
  me = { ...user, headers: { 'X-Workspace-ID': String(user.workspaceId) } };
  return me;
}

function json(method, path, body, kind) {
  const u = signIn();
  const params = {
    headers: { ...u.headers, 'Content-Type': 'application/json' },
    tags: { kind },
    timeout: '30s',
  };
  return http.request(
    method,
    `${BASE}${path}`,
    body === undefined ? null : JSON.stringify(body),
    params,
  );
}

export function browse() {
  const u = signIn();
  const ws = u.workspaceId;
  const prompts = json('GET', `/api/prompts?workspaceId=${ws}`, undefined, 'browse');
  check(prompts, { 'prompts 200': (r) => r.status === 200 });
  const page = json('GET', `/api/contents?workspaceId=${ws}&limit=20`, undefined, 'browse');
  check(page, { 'history 200': (r) => r.status === 200 });
  const next = page.status === 200 ? page.json('nextCursor') : null;
  if (next) {
    const later = json(
      'GET',
      `/api/contents?workspaceId=${ws}&limit=20&cursor=${encodeURIComponent(next)}`,
      undefined,
      'browse',
    );
    check(later, { 'later page 200': (r) => r.status === 200 });
  }
  check(json('GET', `/api/stats?workspaceId=${ws}`, undefined, 'browse'), {
    'stats 200': (r) => r.status === 200,
  });
  check(json('GET', `/api/contents?workspaceId=${ws}&q=echo&limit=20`, undefined, 'browse'), {
    'search 200': (r) => r.status === 200,
  });
}

export function chat() {
  const u = signIn();
  const first = json(
    'POST',
    '/api/generate',
    {
      promptId: u.chatPromptId,
      inputs: { message: `Hallo van ${u.username}` },
      language: 'nl',
      workspaceId: u.workspaceId,
      attachments: [],
    },
    'chat',
  );
  if (!check(first, { 'chat 200': (r) => r.status === 200 })) return;
  const reply = json(
    'POST',
    '/api/generate-reply',
    {
      message: 'En verder?',
      conversationHistory: [
        { role: 'user', content: `Hallo van ${u.username}` },
        { role: 'assistant', content: first.json('result.text') },
      ],
      model: 'gpt-4o',
      promptId: u.chatPromptId,
      workspaceId: u.workspaceId,
      parentContentId: first.json('content.id'),
      attachments: [],
    },
    'chat',
  );
  check(reply, { 'reply 200': (r) => r.status === 200 });
}

export function textGeneration() {
  const u = signIn();
  const res = json(
    'POST',
    '/api/generate',
    {
      promptId: u.textPromptId,
      inputs: { product: 'walking shoes', language: 'en' },
      language: 'en',
      workspaceId: u.workspaceId,
    },
    'text',
  );
  check(res, { 'text 200': (r) => r.status === 200 });
}

export function imageGeneration() {
  const u = signIn();
  const res = json(
    'POST',
    '/api/generate',
    { promptId: u.imagePromptId, inputs: { subject: 'a lighthouse' }, workspaceId: u.workspaceId },
    'image',
  );
  check(res, { 'image 200': (r) => r.status === 200 });
}

const NOTE = 'Meeting notes: launch on Monday.\n'.repeat(20);

export function upload() {
  const u = signIn();
  const res = http.post(
    `${BASE}/api/uploads/chat-attachments`,
    { files: http.file(NOTE, 'notes.txt', 'text/plain') },
    { headers: u.headers, tags: { kind: 'upload' } },
  );
  check(res, { 'upload 200': (r) => r.status === 200 || r.status === 201 });
}
