import { docxWith, pdfWith, PNG } from '../test-support/fixtures';
import { detectAttachments, isPlainText } from './file-checks';

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
      null,
      null,
    ]);
  });

  it('when text holds markup or is not UTF-8, then it is not plain text', () => {
    expect(isPlainText(Buffer.from('Prices: 3 < 4, fine'))).toBe(true);
    expect(isPlainText(Buffer.from('  <?xml version="1.0"?><svg/>'))).toBe(false);
    expect(isPlainText(Buffer.from('hello <script>alert(1)</script>'))).toBe(false);
    expect(isPlainText(Buffer.from([0xc3, 0x28]))).toBe(false);
  });
});
