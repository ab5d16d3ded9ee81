import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (the provider API keys): AES-256-GCM, a random 96-bit IV per value, the
 * value's own address (`aad`, e.g. the setting's `_id`) authenticated with it so that a
 * ciphertext copied into another workspace's slot does not decrypt. Stored as
 * `<keyId>:<iv>:<tag>:<ciphertext>` (base64url), so that the key can be rotated: new values
 * use the current key, older ones are read with the key their prefix names.
 */
export interface SecretBox {
  seal(plaintext: string, aad: string): string;
  open(sealed: string, aad: string): string;
}

export interface SecretBoxKeys {
  current: { id: string; key: Buffer };
  previous?: Array<{ id: string; key: Buffer }>;
}

const ALGORITHM = 'aes-256-gcm';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function createSecretBox({ current, previous = [] }: SecretBoxKeys): SecretBox {
  const keys = new Map<string, Buffer>(previous.map((k) => [k.id, k.key]));
  keys.set(current.id, current.key);
  for (const key of keys.values()) {
    if (key.length !== 32) throw new SecretBoxError('encryption keys must be 32 bytes');
  }

  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, current.key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [current.id, iv, tag, ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    open(sealed, aad) {
      const parts = sealed.split(':');
      if (parts.length !== 4) throw new SecretBoxError('not an encrypted value');
      const [id, iv, tag, ciphertext] = parts as [string, string, string, string];
      const key = keys.get(id);
      if (!key) throw new SecretBoxError(`no decryption key with id ${id}`);
      try {
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretBoxError('the value could not be decrypted (wrong key or tampered)');
      }
    },
  };
}
