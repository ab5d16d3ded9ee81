import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const MAX_IMAGES = 5000;

export type ImageLookup =
  { status: 'ok'; png: Buffer } | { status: 'expired' | 'bad-signature' | 'not-found' };

/**
 * Generated images served at `/files/<id>.png?se=<expiry>&sig=<hmac>`, like a provider's
 * signed blob URL: it works until the expiry written into it, then answers 403.
 */
export class ImageStore {
  private readonly images = new Map<string, Buffer>();
  private readonly secret = randomBytes(16);

  put(png: Buffer, ttlMs: number, now = Date.now()): { id: string; path: string } {
    const id = `img-${randomUUID()}`;
    this.images.set(id, png);
    if (this.images.size > MAX_IMAGES) {
      const oldest = this.images.keys().next().value;
      if (oldest !== undefined) this.images.delete(oldest);
    }
    const expiresAt = now + ttlMs;
    return { id, path: `/files/${id}.png?se=${expiresAt}&sig=${this.sign(id, expiresAt)}` };
  }

  get(id: string, se: string | null, sig: string | null, now = Date.now()): ImageLookup {
    const png = this.images.get(id);
    if (!png) return { status: 'not-found' };
    const expiresAt = Number(se);
    if (!se || !sig || !Number.isFinite(expiresAt) || !this.verify(id, expiresAt, sig)) {
      return { status: 'bad-signature' };
    }
    if (now >= expiresAt) return { status: 'expired' };
    return { status: 'ok', png };
  }

  clear(): void {
    this.images.clear();
  }

  private sign(id: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${id}:${expiresAt}`).digest('base64url');
  }

  private verify(id: string, expiresAt: number, sig: string): boolean {
    const expected = Buffer.from(this.sign(id, expiresAt));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
