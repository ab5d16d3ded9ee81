// A real OpenID Connect provider (the `oidc-provider` package) for the single sign-on tests,
// run as a child process (an ES module, as the package is). Environment: CLIENT_ID,
// CLIENT_SECRET, REDIRECT_URI. It prints `READY <issuer>` once it listens on a free port.
//
// Test controls, beside the provider's own routes:
// - PUT /test/accounts/:sub  {email, preferred_username, groups}: creates or changes an account;
// - PUT /test/login-as       {sub}: the account the next login interaction signs in.
// Interactions need no form: login signs in that account, consent grants what is asked.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
const accounts = new Map();
let loginAs = null;

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
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
    if (!accounts.has(id)) return undefined;
    return { accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) };
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['oidc-test-provider-cookie-key'] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
});
provider.on('server_error', (_ctx, err) => console.error('provider error', err));

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

async function interact(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    if (!loginAs) throw new Error('PUT /test/login-as first');
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: loginAs } },
      { mergeWithLastSubmission: false },
    );
  }
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

const handle = provider.callback();
server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  const fail = (err) => {
    console.error(err);
    res.writeHead(500).end(String(err));
  };
  if (req.method === 'PUT' && url.pathname.startsWith('/test/accounts/')) {
    readJson(req)
      .then((claims) => {
        accounts.set(decodeURIComponent(url.pathname.slice('/test/accounts/'.length)), claims);
        res.writeHead(204).end();
      })
      .catch(fail);
    return;
  }
  if (req.method === 'PUT' && url.pathname === '/test/login-as') {
    readJson(req)
      .then(({ sub }) => {
        loginAs = sub;
        res.writeHead(204).end();
      })
      .catch(fail);
    return;
  }
  if (req.method === 'GET' && url.pathname.startsWith('/interaction/')) {
    interact(req, res).catch(fail);
    return;
  }
  handle(req, res);
});

process.stdout.write(`READY ${issuer}\n`);
