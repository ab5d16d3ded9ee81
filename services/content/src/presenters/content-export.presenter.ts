import type { ContentExport, ContentItem, ExportFormat } from '@aict/contracts';
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';

// A conversation (or text thread) as a download: Markdown, JSON or .docx. The messages are
// those the chat shows (web-kit's rebuildConversation): the first turn's user message is
// metadata.inputs.message (else its prompt inputs), a later turn's metadata.originalMessage;
// each turn's content is the assistant's answer.

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Buffer;
}

type ExportMessage = ContentExport['messages'][number];

function askedIn(item: ContentItem, index: number): string | null {
  const { inputs, originalMessage } = item.metadata;
  if (index > 0)
    return typeof originalMessage === 'string' && originalMessage ? originalMessage : null;
  if (typeof inputs?.message === 'string' && inputs.message) return inputs.message;
  const filled = Object.entries(inputs ?? {}).filter(([, value]) => value.trim() !== '');
  return filled.length > 0 ? filled.map(([name, value]) => `${name}: ${value}`).join('\n') : null;
}

/** The export's document: the thread's messages, oldest first. */
export function presentExport(items: readonly ContentItem[], now = new Date()): ContentExport {
  const messages: ExportMessage[] = [];
  items.forEach((item, index) => {
    const asked = askedIn(item, index);
    if (asked)
      messages.push({
        id: `${item.id}:user`,
        role: 'user',
        content: asked,
        createdAt: item.createdAt,
      });
    messages.push({
      id: item.id,
      role: 'assistant',
      content: item.content,
      model: item.model,
      createdAt: item.createdAt,
      ...(item.voiceFlags?.length ? { voiceFlags: item.voiceFlags } : {}),
    });
  });
  return { exportedAt: now.toISOString(), title: items[0]?.title ?? 'Conversation', messages };
}

const ROLE_LABEL = { user: 'User', assistant: 'Assistant' } as const;

/** The title as a file name: lower case, letters and digits, hyphens; never empty. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${base || 'conversation'}.${format}`;
}

function toMarkdown(doc: ContentExport): string {
  const parts = [`# ${doc.title.replace(/\s+/g, ' ').trim()}`, ''];
  for (const m of doc.messages) {
    parts.push(`## ${ROLE_LABEL[m.role]}`, '', m.content.trim(), '');
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

async function toDocx(doc: ContentExport): Promise<Buffer> {
  const paragraphs = [new Paragraph({ text: doc.title, heading: HeadingLevel.TITLE })];
  for (const m of doc.messages) {
    paragraphs.push(new Paragraph({ text: ROLE_LABEL[m.role], heading: HeadingLevel.HEADING_2 }));
    for (const line of m.content.split(/\r?\n/))
      paragraphs.push(new Paragraph({ children: [new TextRun(line)] }));
  }
  return Packer.toBuffer(new Document({ title: doc.title, sections: [{ children: paragraphs }] }));
}

/** The file of one format: bytes, content type and download name. */
export async function renderExport(doc: ContentExport, format: ExportFormat): Promise<ExportFile> {
  const fileName = exportFileName(doc.title, format);
  switch (format) {
    case 'md':
      return {
        contentType: 'text/markdown; charset=utf-8',
        fileName,
        body: Buffer.from(toMarkdown(doc), 'utf8'),
      };
    case 'json':
      return {
        contentType: 'application/json; charset=utf-8',
        fileName,
        body: Buffer.from(JSON.stringify(doc, null, 2), 'utf8'),
      };
    case 'docx':
      return {
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        fileName,
        body: await toDocx(doc),
      };
  }
}
