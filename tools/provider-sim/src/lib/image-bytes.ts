import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';

export const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp'] as const;

export interface SniffedFile {
  /** 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf', or null when unknown. */
  format: string | null;
  isImage: boolean;
  width?: number;
  height?: number;
}

/** Tells the format (and, where cheap, the size) from the bytes themselves. */
export function sniffFile(bytes: Buffer): SniffedFile {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.readUInt32BE(4) === 0x0d0a1a0a
  ) {
    return {
      format: 'png',
      isImage: true,
      width: bytes.readUInt32BE(16),
      height: bytes.readUInt32BE(20),
    };
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { format: 'jpeg', isImage: true, ...jpegSize(bytes) };
  }
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) {
    return {
      format: 'gif',
      isImage: true,
      width: bytes.readUInt16LE(6),
      height: bytes.readUInt16LE(8),
    };
  }
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP')
    return { format: 'webp', isImage: true };
  if (head.startsWith('%PDF')) return { format: 'pdf', isImage: false };
  return { format: null, isImage: false };
}

function jpegSize(bytes: Buffer): { width?: number; height?: number } {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return {};
    const marker = bytes[offset + 1]!;
    const length = bytes.readUInt16BE(offset + 2);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isStartOfFrame) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return {};
}

/** The colour an image for this seed gets (also lets a test predict it). */
export function colourFor(seed: string): [number, number, number] {
  const digest = createHash('sha256').update(seed).digest();
  return [digest[0]!, digest[1]!, digest[2]!];
}

/** A real PNG: a square filled with the seed's colour, crossed by a diagonal in its complement. */
export function renderPng(seed: string, size: number): Buffer {
  const [r, g, b] = colourFor(seed);
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const i = (y * size + x) * 4;
      const onDiagonal = Math.abs(x - y) <= Math.max(1, Math.floor(size / 32));
      png.data[i] = onDiagonal ? 255 - r : r;
      png.data[i + 1] = onDiagonal ? 255 - g : g;
      png.data[i + 2] = onDiagonal ? 255 - b : b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
