import { docxBomb, manyPagePdf, pdfBomb } from '../test-support/bombs';
import { docxWith, pdfWith } from '../test-support/fixtures';
import { EXTRACT_LIMITS } from './extract-limits';
import { extractText, UnreadableFileError } from './extract-text';

const limits = { timeoutMs: 20_000, maxChars: 100_000, maxMemoryMb: 160 };

async function refusal(read: Promise<unknown>): Promise<UnreadableFileError> {
  const err = await read.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnreadableFileError);
  return err as UnreadableFileError;
}

describe('reading attached documents within limits', () => {
  it('when a DOCX and a PDF are ordinary, then their text is read', async () => {
    expect(await extractText(await docxWith('Launch in March.'), 'docx', limits)).toContain(
      'Launch in March.',
    );
    expect(await extractText(await pdfWith('Revenue grew.'), 'pdf', limits)).toContain(
      'Revenue grew.',
    );
  });

  it('when a DOCX declares that it expands to 600 MB, then it is refused naming the limit', async () => {
    const err = await refusal(extractText(docxBomb(600), 'docx', limits));
    expect(err.limitMessage).toBe('The file expands to more than 50 MB when unpacked.');
  });

  it('when a DOCX declares 1 KB but expands to 600 MB, then it is refused naming the limit', async () => {
    const err = await refusal(extractText(docxBomb(600, { lie: true }), 'docx', limits));
    expect(err.limitMessage).toBe('The file expands to more than 50 MB when unpacked.');
  });

  it('when a PDF has one page more than the page limit, then it is refused naming the limit', async () => {
    const pdf = await manyPagePdf(EXTRACT_LIMITS.maxPdfPages + 1);
    const err = await refusal(extractText(pdf, 'pdf', limits));
    expect(err.limitMessage).toBe('The file has more than 1000 pages.');
  }, 30_000);

  it('when reading needs more memory than allowed, then the reader is stopped and the limit named', async () => {
    const err = await refusal(extractText(docxBomb(40), 'docx', { ...limits, maxMemoryMb: 64 }));
    expect(err.limitMessage).toBe('Reading the file needs more than 64 MB of memory.');
  });

  it('when a one-page PDF holds text that expands to 600 MB, then the reader is stopped at the memory limit', async () => {
    const err = await refusal(extractText(pdfBomb(600), 'pdf', { ...limits, maxMemoryMb: 128 }));
    expect(err.limitMessage).toBe('Reading the file needs more than 128 MB of memory.');
  });

  it('when a text is longer than the character limit, then only that many characters come back', async () => {
    const text = await extractText(Buffer.alloc(5_000_000, 'é'), 'text', limits);
    expect(text.length).toBe(limits.maxChars);
  });
});
