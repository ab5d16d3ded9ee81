import { checkFiles, declaredAsMarkup, isPlainText, sniffImage } from './file-check';
import { pngDeclaring } from './testing';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('sniffImage', () => {
  it('when the bytes are a PNG, JPEG or WebP, then the type comes from the bytes', () => {
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WEBPVP8L'),
      Buffer.alloc(8),
    ]);

    expect(sniffImage(PNG)?.mime).toBe('image/png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0]))?.mime).toBe('image/jpeg');
    expect(sniffImage(webp)?.mime).toBe('image/webp');
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
    expect(sniffImage(bytes)).toBeNull();
  });
});

describe('plain text and markup', () => {
  it('when text is UTF-8 without NUL, then it is plain text whatever it says; other bytes are not', () => {
    expect(isPlainText(Buffer.from('Prices: 3 < 4, fine'))).toBe(true);
    expect(isPlainText(Buffer.from('hello <script>alert(1)</script>'))).toBe(true);
    expect(isPlainText(Buffer.from([0xc3, 0x28]))).toBe(false);
    expect(isPlainText(Buffer.from('a\u0000b'))).toBe(false);
  });

  it('when a file is sent as an HTML page, an SVG or XML, then it is declared as markup', () => {
    expect(declaredAsMarkup('page.html', 'text/plain')).toBe(true);
    expect(declaredAsMarkup('logo.svg', '')).toBe(true);
    expect(declaredAsMarkup('notes.txt', 'text/html')).toBe(true);
    expect(declaredAsMarkup('notes.txt', 'text/plain')).toBe(false);
  });
});

describe('checkFiles', () => {
  const allowed = ['image/png', 'application/pdf'];

  it('when files are checked, then their bytes decide: allowed types pass, others and empty files are null', async () => {
    const found = await checkFiles(
      [
        { bytes: PNG, filename: 'notes.txt' },
        { bytes: Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'), filename: 'a.png' },
        { bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), filename: 'a.png' },
        { bytes: Buffer.alloc(0) },
        { bytes: Buffer.from('plain words') },
      ],
      { allowed },
    );
    expect(found).toEqual(['image/png', 'application/pdf', null, null, null]);
  });

  it('when text is allowed, then UTF-8 text is text/plain unless it is sent as markup', async () => {
    const html = Buffer.from('<html><body>hi</body></html>');
    const found = await checkFiles(
      [
        { bytes: html, filename: 'page.txt', declaredType: 'text/plain' },
        { bytes: html, filename: 'page.html', declaredType: 'text/plain' },
        { bytes: html, filename: 'page.txt', declaredType: 'image/svg+xml' },
      ],
      { allowed, text: true },
    );
    expect(found).toEqual(['text/plain', null, null]);
  });

  it('when an image declares more pixels than the cap, then 413 FILE.TOO_LARGE names the limit', async () => {
    const huge = { bytes: pngDeclaring(40_000, 40_000) };
    await expect(checkFiles([huge], { allowed, maxPixels: 1_000_000 })).rejects.toMatchObject({
      status: 413,
      code: 'FILE.TOO_LARGE',
      message: 'The image must be at most 1 megapixels.',
    });
    await expect(checkFiles([huge], { allowed, maxPixels: false })).resolves.toEqual(['image/png']);
  });
});
