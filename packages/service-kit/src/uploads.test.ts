import { MAX_IMAGE_PIXELS } from '@aict/contracts';
import { pngDeclaring } from './testing';
import { checkImagePixels, cleanFileName, imageDimensions } from './uploads';

describe('the pixel limit of uploaded images', () => {
  it('when a PNG header declares 40000×40000, then it is over the limit without being decoded', () => {
    const png = pngDeclaring(40_000, 40_000);

    expect(png.length).toBeLessThan(1024);
    expect(imageDimensions(png)).toEqual({ width: 40_000, height: 40_000 });
    expect(checkImagePixels(png)).toBe('too-many-pixels');
  });

  it('when an image is exactly at the limit, then it passes; one row more does not', () => {
    expect(checkImagePixels(pngDeclaring(5_000, MAX_IMAGE_PIXELS / 5_000))).toBe('ok');
    expect(checkImagePixels(pngDeclaring(5_000, MAX_IMAGE_PIXELS / 5_000 + 1))).toBe(
      'too-many-pixels',
    );
  });

  it('when the bytes are no image, then they are unreadable', () => {
    expect(checkImagePixels(Buffer.from('hello'))).toBe('unreadable');
  });
});

describe('names of uploaded files', () => {
  it('when a name hides its extension with a right-to-left override, then the control is removed', () => {
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('a\u2066b\u2069c\u200Ed\u200Fe\u061Cf\u202Ag\u202Bh\u202Ci\u202Dj')).toBe(
      'abcdefghij',
    );
  });

  it('when a name is decomposed Unicode, then it is stored composed (NFC)', () => {
    expect(cleanFileName('cafe\u0301.txt')).toBe('café.txt');
  });

  it('when a name holds control characters or path separators, then they do not survive', () => {
    expect(cleanFileName('../etc/\u0000pass\nwd')).toBe('.._etc_passwd');
    expect(cleanFileName('\u202E  ')).toBe('file');
  });
});
