import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { SESSION_TOKEN_TYPE, SessionClaims, TOKEN_AUDIENCE, TOKEN_ISSUER } from '@aict/contracts';
import { keyIdOf, keyRing, verifyPinnedToken } from '@aict/service-kit';

/** A session token as issued: the JWT, its session id and its expiry. */
export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

const VerifiedClaims = SessionClaims.extend({ exp: z.number().int(), iat: z.number().int() });
export type VerifiedSessionClaims = z.infer<typeof VerifiedClaims>;

/**
 * Session tokens (docs/adr/0001-identity-and-tenancy.md): ES256, signed with
 * JWT_PRIVATE_KEY (loaded once); header `typ: JWT` and `kid` (the key's JWK thumbprint);
 * claims `sub`, `sid` (one per sign-in), `tv`, `iat`, `exp`, issuer `aict-auth`, audience
 * `aict`. Verification pins the header and requires `exp` and `iat` (service-kit's
 * verifyPinnedToken, as the gateway does).
 */
export function sessionTokens(privateKeyPem: string, ttlSeconds: number) {
  const privateKey: KeyObject = createPrivateKey(privateKeyPem);
  const publicKey: KeyObject = createPublicKey(privateKey);
  const keyid = keyIdOf(publicKey);
  const keys = keyRing(publicKey);

  return {
    publicKey,

    issue(user: { _id: string; tokenVersion: number }, now = Date.now()): IssuedSession {
      const sessionId = randomUUID();
      const iat = Math.floor(now / 1000);
      const exp = iat + ttlSeconds;
      const token = jwt.sign({ sid: sessionId, tv: user.tokenVersion, iat, exp }, privateKey, {
        algorithm: 'ES256',
        keyid,
        header: { alg: 'ES256', typ: SESSION_TOKEN_TYPE },
        subject: user._id,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      });
      return { token, sessionId, expiresAt: new Date(exp * 1000) };
    },

    /** The claims of a token this service issued and that has not expired; null otherwise. */
    verify(token: string): VerifiedSessionClaims | null {
      try {
        const claims = verifyPinnedToken(token, {
          keys,
          typ: SESSION_TOKEN_TYPE,
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
        });
        const parsed = VerifiedClaims.safeParse(claims);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof sessionTokens>;
