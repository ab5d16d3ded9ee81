import { docxWith, pdfWith, PNG } from '../test-support/fixtures';
import { declaredAsMarkup, detectAttachments, isPlainText } from './file-checks';

describe('attachment types from their bytes', () => {
  it('when files are sniffed, then the content decides whatever their names say', async () => {
    const found = await detectAttachments([
      PNG,
      await pdfWith('hello'),
      await docxWith('hello'),
      Buffer.from('plain words'),
      Buffer.from('<html><body>hi</body></html>'),
      Buffer.from('GIF89a\x01\x00\x01\x00'),
    ]);
    expect(found.map((f) => f?.mimeType ?? null)).toEqual([
      'image/png',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/plain',
      'text/plain',
      null,
    ]);
  });

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
