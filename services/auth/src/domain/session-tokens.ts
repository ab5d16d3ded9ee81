import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { SessionClaims, TOKEN_AUDIENCE, TOKEN_ISSUER } from '@aict/contracts';

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
 * JWT_PRIVATE_KEY (loaded once); claims `sub`, `sid` (one per sign-in), `tv`, `iat`, `exp`,
 * issuer `aict-auth`, audience `aict`.
 */
export function sessionTokens(privateKeyPem: string, ttlSeconds: number) {
  const privateKey: KeyObject = createPrivateKey(privateKeyPem);
  const publicKey: KeyObject = createPublicKey(privateKey);

  return {
    publicKey,

    issue(user: { _id: string; tokenVersion: number }, now = Date.now()): IssuedSession {
      const sessionId = randomUUID();
      const iat = Math.floor(now / 1000);
      const exp = iat + ttlSeconds;
      const token = jwt.sign({ sid: sessionId, tv: user.tokenVersion, iat, exp }, privateKey, {
        algorithm: 'ES256',
        subject: user._id,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      });
      return { token, sessionId, expiresAt: new Date(exp * 1000) };
    },

    /** The claims of a token this service issued and that has not expired; null otherwise. */
    verify(token: string): VerifiedSessionClaims | null {
      try {
        const claims = jwt.verify(token, publicKey, {
          algorithms: ['ES256'],
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
