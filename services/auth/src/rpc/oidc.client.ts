import type { Configuration } from 'openid-client' with { 'resolution-mode': 'import' };

// openid-client is an ES module: loaded with import() from this CommonJS service.
const loadClient = () => import('openid-client');

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string;
  /** Lets the client talk to an `http://` issuer (local tests only). */
  allowHttp: boolean;
}

/** What the browser must bring back to the callback: kept in a signed cookie meanwhile. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's verified word about the user: ID token claims, with userinfo on top. */
export type OidcClaims = Record<string, unknown> & { iss: string; sub: string };

/**
 * The single sign-on client (openid-client): authorization code with PKCE, state and nonce.
 * Discovery happens at the first use and is kept; a failed discovery is tried again next time.
 */
export function oidcClient(settings: OidcSettings) {
  let configuration: Promise<Configuration> | null = null;
  const configured = () => {
    configuration ??= loadClient()
      .then((client) =>
        client.discovery(
          new URL(settings.issuerUrl),
          settings.clientId,
          settings.clientSecret,
          undefined,
          settings.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
        ),
      )
      .catch((err: unknown) => {
        configuration = null;
        throw err;
      });
    return configuration;
  };

  return {
    /** The provider's authorization URL, and what the callback must check. */
    async start(): Promise<{ url: URL; pending: PendingSignIn }> {
      const [client, config] = await Promise.all([loadClient(), configured()]);
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, pending };
    },

    /**
     * Redeems the code of the callback's query (state, nonce and PKCE checked; throws when
     * anything does not match) and reads the user's claims.
     */
    async finish(query: string, pending: PendingSignIn): Promise<OidcClaims> {
      const [client, config] = await Promise.all([loadClient(), configured()]);
      const currentUrl = new URL(settings.redirectUri);
      currentUrl.search = query;
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider sent no ID token');
      let userInfo: Record<string, unknown> = {};
      try {
        userInfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      } catch {
        // Not every provider serves userinfo: the ID token's claims then.
      }
      return { ...idClaims, ...userInfo, iss: idClaims.iss, sub: idClaims.sub };
    },
  };
}

export type OidcClient = ReturnType<typeof oidcClient>;
