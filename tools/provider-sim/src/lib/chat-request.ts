import type { ChatSummary, MessageSummary, PartSummary } from '../recorded-request';
import { IMAGE_FORMATS, sniffFile } from './image-bytes';
import { simErrors } from './openai-errors';

export interface ChatRequest {
  model: string;
  stream: boolean;
  summary: ChatSummary;
}

const PART_TYPES = ['text', 'image_url', 'input_audio', 'refusal', 'file'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validates a chat.completions body the way the API does, and summarises what it carries. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isRecord(body)) throw simErrors.badRequest('The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model.length === 0) {
    throw simErrors.badRequest(
      'you must provide a model parameter',
      'model',
      'missing_required_parameter',
    );
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw simErrors.badRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  const messages = body.messages.map((message, index) => summariseMessage(message, index));
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const countParts = (type: string): number =>
    messages.reduce(
      (sum, message) => sum + message.parts.filter((part) => part.type === type).length,
      0,
    );
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: body.model,
    stream: body.stream === true,
    summary: {
      messages,
      lastUserText: lastUser?.text ?? '',
      imageCount: countParts('image_url'),
      fileCount: countParts('file'),
      ...(typeof maxTokens === 'number' && maxTokens > 0 ? { maxTokens } : {}),
      includeUsage: streamOptions.include_usage === true,
    },
  };
}

function summariseMessage(message: unknown, index: number): MessageSummary {
  const where = `messages[${index}]`;
  if (!isRecord(message) || typeof message.role !== 'string') {
    throw simErrors.badRequest(
      `Missing required parameter: '${where}.role'.`,
      `${where}.role`,
      'missing_required_parameter',
    );
  }
  const { role, content } = message;
  if (typeof content === 'string')
    return { role, text: content, parts: [{ type: 'text', chars: content.length }] };
  if (content === null || content === undefined) return { role, text: '', parts: [] };
  if (!Array.isArray(content)) {
    throw simErrors.badRequest(
      `Invalid type for '${where}.content': expected one of a string or array of objects.`,
      `${where}.content`,
      'invalid_type',
    );
  }
  const texts: string[] = [];
  const parts = content.map((part, partIndex): PartSummary => {
    const at = `${where}.content[${partIndex}]`;
    if (!isRecord(part) || typeof part.type !== 'string' || !PART_TYPES.includes(part.type)) {
      throw simErrors.badRequest(
        `Invalid value: '${isRecord(part) ? String(part.type) : typeof part}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', and 'file'.`,
        `${at}.type`,
        'invalid_value',
      );
    }
    if (part.type === 'text') {
      if (typeof part.text !== 'string') {
        throw simErrors.badRequest(
          `Missing required parameter: '${at}.text'.`,
          `${at}.text`,
          'missing_required_parameter',
        );
      }
      texts.push(part.text);
      return { type: 'text', chars: part.text.length };
    }
    if (part.type === 'image_url') return summariseImagePart(part, at);
    if (part.type === 'file') return summariseFilePart(part);
    return { type: part.type };
  });
  return { role, text: texts.join('\n'), parts };
}

function summariseImagePart(part: Record<string, unknown>, at: string): PartSummary {
  const imageUrl = isRecord(part.image_url) ? part.image_url : {};
  const url = imageUrl.url;
  const detail = typeof imageUrl.detail === 'string' ? { detail: imageUrl.detail } : {};
  if (typeof url !== 'string') {
    throw simErrors.badRequest(
      `Missing required parameter: '${at}.image_url.url'.`,
      `${at}.image_url.url`,
      'missing_required_parameter',
    );
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image_url', source: 'http', url, ...detail };
  const data = decodeDataUrl(url);
  if (!data || !data.mediaType.startsWith('image/')) {
    throw simErrors.badRequest(
      "Invalid image URL: expected a URL or a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=').",
      `${at}.image_url.url`,
      'invalid_image_url',
    );
  }
  if (!sniffFile(data.bytes).isImage) {
    throw simErrors.badRequest(
      `You uploaded an unsupported image. Please make sure your image has of one the following formats: [${IMAGE_FORMATS.map((f) => `'${f}'`).join(', ')}].`,
      `${at}.image_url.url`,
      'invalid_image_format',
    );
  }
  return {
    type: 'image_url',
    source: 'data',
    mediaType: data.mediaType,
    bytes: data.bytes.length,
    ...detail,
  };
}

function summariseFilePart(part: Record<string, unknown>): PartSummary {
  const file = isRecord(part.file) ? part.file : {};
  const filename = typeof file.filename === 'string' ? { filename: file.filename } : {};
  const fileId = typeof file.file_id === 'string' ? { fileId: file.file_id } : {};
  const data = typeof file.file_data === 'string' ? decodeDataUrl(file.file_data) : null;
  return {
    type: 'file',
    ...filename,
    ...fileId,
    ...(data ? { mediaType: data.mediaType, bytes: data.bytes.length } : {}),
  };
}

/** `data:<type>[;params][;base64],<data>` → bytes, or null when it is not a data URL. */
export function decodeDataUrl(url: string): { mediaType: string; bytes: Buffer } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(url);
  if (!match) return null;
  const payload = url.slice(match[0].length);
  const isBase64 = /;base64$/i.test(match[2] ?? '');
  let bytes: Buffer;
  try {
    bytes = isBase64
      ? Buffer.from(payload, 'base64')
      : Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    return null;
  }
  return { mediaType: (match[1] || 'text/plain').toLowerCase(), bytes };
}
