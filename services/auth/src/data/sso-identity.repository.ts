import type { SsoIdentityModel, SsoIdentityRecord } from './sso-identity.model';

const keyOf = (issuer: string, subject: string) => `${issuer} ${subject}`;

export function ssoIdentityRepository(SsoIdentity: SsoIdentityModel) {
  return {
    /** The user a provider's subject signed in as before, if any. */
    async userIdOf(issuer: string, subject: string): Promise<string | null> {
      const found = await SsoIdentity.findById(keyOf(issuer, subject)).lean<SsoIdentityRecord>();
      return found?.userId ?? null;
    },

    /** Links the subject to `userId` (replacing a link to a user deleted since). */
    async link(issuer: string, subject: string, userId: string): Promise<void> {
      await SsoIdentity.updateOne(
        { _id: keyOf(issuer, subject) },
        { $set: { userId }, $setOnInsert: { createdAt: new Date() } },
        { upsert: true },
      );
    },
  };
}

export type SsoIdentityRepository = ReturnType<typeof ssoIdentityRepository>;
