import { constants, crc32, deflateRawSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

interface ZipEntry {
  name: string;
  /** Raw deflate data. */
  data: Buffer;
  crc: number;
  size: number;
  /** What the directory says the entry expands to (a liar says less than `size`). */
  declaredSize?: number;
}

function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const declared = entry.declaredSize ?? entry.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const dir = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/**
 * `megabytes` MB of XML as raw deflate, without ever holding them: one MB deflated with a
 * full flush (no reference outside itself) is repeated, then a final empty block.
 */
function repeatedDeflate(megabytes: number): { data: Buffer; crc: number; size: number } {
  const paragraph = '<w:p><w:r><w:t>bomb text </w:t></w:r></w:p>';
  const chunk = Buffer.alloc(1024 * 1024, paragraph);
  const block = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < megabytes; i++) crc = crc32(chunk, crc);
  const data = Buffer.concat([...Array<Buffer>(megabytes).fill(block), Buffer.from([0x03, 0x00])]);
  return { data, crc, size: megabytes * chunk.length };
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>';

function small(name: string, text: string): ZipEntry {
  const bytes = Buffer.from(text, 'utf8');
  return { name, data: deflateRawSync(bytes), crc: crc32(bytes), size: bytes.length };
}

/**
 * A DOCX whose word/document.xml expands to `megabytes` MB (the file itself stays small:
 * about 1 KB per MB). `lie` makes the zip directory declare 1 KB for it.
 */
export function docxBomb(megabytes: number, options: { lie?: boolean } = {}): Buffer {
  const bomb = repeatedDeflate(megabytes);
  return zipOf([
    small('[Content_Types].xml', CONTENT_TYPES),
    small('_rels/.rels', RELS),
    { name: 'word/document.xml', ...bomb, ...(options.lie ? { declaredSize: 1024 } : {}) },
  ]);
}

/** A PDF of `pages` pages with a line of text on each. */
export function manyPagePdf(pages: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, compress: true });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (let i = 1; i <= pages; i++) doc.addPage({ size: [200, 200] }).text(`Page ${i}`);
    doc.end();
  });
}

/**
 * A one-page PDF whose content stream (FlateDecode) expands to `megabytes` MB of text
 * operators: the file is small, reading its text is not.
 */
export function pdfBomb(megabytes: number): Buffer {
  const chunk = Buffer.alloc(1024 * 1024, 'BT /F1 12 Tf 10 10 Td (bomb text) Tj ET\n');
  const block = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const zlibHeader = Buffer.from([0x78, 0x9c]);
  const data = Buffer.concat([
    zlibHeader,
    ...Array<Buffer>(megabytes).fill(block),
    Buffer.from([3, 0]),
  ]);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R ' +
        '/Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(xref)]);
}
