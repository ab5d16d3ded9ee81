// A real OpenID Connect provider (the `oidc-provider` package) for the single sign-on
// end-to-end test (e2e/sso.e2e.ts), started by global-setup.mjs as a child process on a free
// port of 127.0.0.1. Unlike the auth service's test provider (which signs the next account in
// without a form), it has its own pages, as a company's identity provider would: a login form
// (username and password) and a consent form, which the browser fills in.
//
// Environment: CLIENT_ID, CLIENT_SECRET, REDIRECT_URI. It prints `READY <issuer>` once it
// listens.
//
// Test controls, beside the provider's own routes:
// - PUT /test/accounts/:sub    {username, password, email, groups}: creates or replaces an account;
// - PATCH /test/accounts/:sub  {groups?, email?, …}: changes an account (404 if unknown).
// The `groups` claim is read at every token and userinfo request, so a change shows at the
// next sign-in.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
if (!CLIENT_ID || !CLIENT_SECRET || !REDIRECT_URI)
  throw new Error('CLIENT_ID, CLIENT_SECRET and REDIRECT_URI are required');

/** @type {Map<string, {username: string, password: string, email: string, groups: string[]}>} */
const accounts = new Map();

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      client_name: 'AI Content Tool',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['preferred_username', 'name'],
    groups: ['groups'],
  },
  findAccount: (_ctx, id) => {
    const account = accounts.get(id);
    if (!account) return undefined;
    return {
      accountId: id,
      claims: () => {
        // the account as it is now (a group removed meanwhile is gone from the claims)
        const now = accounts.get(id) ?? account;
        return {
          sub: id,
          email: now.email,
          email_verified: true,
          preferred_username: now.username,
          name: now.username,
          groups: now.groups,
        };
      },
    };
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['e2e-oidc-provider-cookie-key'] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
});
provider.on('server_error', (_ctx, err) => console.error('provider error', err));

const escape = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function page(res, status, title, body) {
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}` +
        ` – Company IdP</title></head><body><main><h1>${escape(title)}</h1>${body}</main>` +
        `</body></html>`,
    );
}

function loginPage(res, uid, { status = 200, error = '', username = '' } = {}) {
  page(
    res,
    status,
    'Sign in to Company IdP',
    `${error ? `<p role="alert">${escape(error)}</p>` : ''}` +
      `<form method="post" action="/interaction/${escape(uid)}/login" autocomplete="off">` +
      `<p><label for="username">Username</label> ` +
      `<input id="username" name="username" value="${escape(username)}" required></p>` +
      `<p><label for="password">Password</label> ` +
      `<input id="password" name="password" type="password" required></p>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

function consentPage(res, uid, { clientName, scopes }) {
  page(
    res,
    200,
    'Allow access',
    `<p>${escape(clientName)} asks to see your ${escape(scopes.join(', '))}.</p>` +
      `<form method="post" action="/interaction/${escape(uid)}/confirm">` +
      `<button type="submit">Allow</button></form>`,
  );
}

async function readBody(req) {
  let text = '';
  req.setEncoding('utf8');
  for await (const chunk of req) text += chunk;
  return text;
}

async function showInteraction(req, res, uid) {
  const { prompt, params } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') return loginPage(res, uid);
  const client = await provider.Client.find(params.client_id);
  return consentPage(res, uid, {
    clientName: client?.clientName ?? params.client_id,
    scopes: String(params.scope ?? '')
      .split(' ')
      .filter((s) => s && s !== 'openid'),
  });
}

async function login(req, res, uid) {
  const { prompt } = await provider.interactionDetails(req, res);
  if (prompt.name !== 'login') throw new Error(`expected a login prompt, not ${prompt.name}`);
  const form = new URLSearchParams(await readBody(req));
  const username = form.get('username') ?? '';
  const found = [...accounts].find(
    ([, a]) => a.username === username && a.password === form.get('password'),
  );
  if (!found)
    return loginPage(res, uid, { status: 401, error: 'Wrong username or password.', username });
  return provider.interactionFinished(
    req,
    res,
    { login: { accountId: found[0] } },
    { mergeWithLastSubmission: false },
  );
}

async function confirm(req, res) {
  await readBody(req);
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name !== 'consent') throw new Error(`expected a consent prompt, not ${prompt.name}`);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

async function control(req, res, sub) {
  const body = JSON.parse((await readBody(req)) || '{}');
  if (req.method === 'PUT') {
    const { username, password, email, groups = [] } = body;
    if (!username || !password || !email) throw new Error('username, password and email');
    accounts.set(sub, { username, password, email, groups });
  } else {
    const account = accounts.get(sub);
    if (!account) return res.writeHead(404).end();
    accounts.set(sub, { ...account, ...body });
  }
  return res.writeHead(204).end();
}

const handle = provider.callback();
server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  const fail = (err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(err));
  };
  const account = /^\/test\/accounts\/([^/]+)$/.exec(url.pathname);
  if (account && (req.method === 'PUT' || req.method === 'PATCH')) {
    control(req, res, decodeURIComponent(account[1])).catch(fail);
    return;
  }
  const interaction = /^\/interaction\/([^/]+)(?:\/(login|confirm))?$/.exec(url.pathname);
  if (interaction) {
    const [, uid, step] = interaction;
    if (req.method === 'GET' && !step) showInteraction(req, res, uid).catch(fail);
    else if (req.method === 'POST' && step === 'login') login(req, res, uid).catch(fail);
    else if (req.method === 'POST' && step === 'confirm') confirm(req, res).catch(fail);
    else res.writeHead(405).end();
    return;
  }
  handle(req, res);
});

process.stdout.write(`READY ${issuer}\n`);
