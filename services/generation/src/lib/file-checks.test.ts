import { docxWith, pdfWith, PNG } from '../test-support/fixtures';
import { detectAttachments } from './file-checks';

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
});
