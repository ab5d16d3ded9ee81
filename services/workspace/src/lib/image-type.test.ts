import { detectImageType } from './image-type';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('detectImageType', () => {
  it('when the bytes are a PNG, JPEG or WebP, then the type comes from the bytes', () => {
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WEBPVP8L'),
      Buffer.alloc(8),
    ]);

    expect(detectImageType(PNG)?.mime).toBe('image/png');
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0]))?.mime).toBe('image/jpeg');
    expect(detectImageType(webp)?.mime).toBe('image/webp');
  });

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
    ['a PNG signature alone', PNG.subarray(0, 8)],
    [
      'a RIFF that is not WebP',
      Buffer.concat([
        Buffer.from('RIFF'),
        Buffer.alloc(4),
        Buffer.from('WAVEfmt '),
        Buffer.alloc(8),
      ]),
    ],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00')],
    ['nothing', Buffer.alloc(0)],
  ])('when the bytes are %s, then they are not an accepted image', (_what, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });
});
