import { z } from 'zod';
import { DEFAULT_TEXT_MODEL, FIELD_LIMITS, MAX_CHAT_FILES } from '../constants';
import { EntityId, WorkspaceId } from '../ids';
import { Attachment, ChatMessage } from '../entities/content';
import { ImageModel, Language, ResourceUrl, TextModel } from '../primitives';
import { FILE_RESPONSE, OptionalWorkspaceQuery, type RouteDef } from './route';

const PromptRef = z
  .string({ error: 'Please select a prompt' })
  .min(1, { error: 'Please select a prompt', abort: true })
  .pipe(EntityId);

/** Template inputs by variable name; missing variables fill in as ''. */
export const TemplateInputs = z
  .record(
    z.string().max(FIELD_LIMITS.variableName),
    z
      .string()
      .max(FIELD_LIMITS.inputValue, `Inputs must be at most ${FIELD_LIMITS.inputValue} characters`),
  )
  .refine((inputs) => Object.keys(inputs).length <= FIELD_LIMITS.inputCount, 'Too many inputs');
export type TemplateInputs = z.infer<typeof TemplateInputs>;

const AttachmentIds = z
  .array(EntityId)
  .max(MAX_CHAT_FILES, `You can attach a maximum of ${MAX_CHAT_FILES} files.`)
  .default([]);

/**
 * First message of a chat or a text/image generation. The chat puts its text in
 * inputs.message and sends language 'nl'. `model` (admins' choice; else the prompt's) must
 * belong to the prompt's content type: the service checks it with isModelFor.
 */
export const GenerateBody = z.object({
  promptId: PromptRef,
  inputs: TemplateInputs.default({}),
  model: z.string().trim().min(1).max(64).optional(),
  language: Language.optional(),
  workspaceId: WorkspaceId.nullish(),
  attachments: AttachmentIds,
});
export type GenerateBody = z.infer<typeof GenerateBody>;

/**
 * The history a reply sends along (it all goes to the provider): bounded in messages, in
 * characters per message and in characters in all.
 */
const ConversationHistory = z
  .array(
    ChatMessage.extend({
      content: z
        .string()
        .max(
          FIELD_LIMITS.message,
          `Each message of the conversation must be at most ${FIELD_LIMITS.message} characters.`,
        ),
    }),
  )
  .max(
    FIELD_LIMITS.conversationMessages,
    `The conversation is too long: at most ${FIELD_LIMITS.conversationMessages} messages can be sent. Please start a new chat.`,
  )
  .refine(
    (history) =>
      history.reduce((sum, m) => sum + m.content.length, 0) <= FIELD_LIMITS.conversationChars,
    `The conversation is too long: at most ${FIELD_LIMITS.conversationChars} characters of history can be sent. Please start a new chat.`,
  )
  .default([]);

/** A reply in a thread: text only. The message may be empty when files are attached. */
export const GenerateReplyBody = z
  .object({
    message: z.string().trim().max(FIELD_LIMITS.message, 'Message is too long').default(''),
    conversationHistory: ConversationHistory,
    model: TextModel.default(DEFAULT_TEXT_MODEL),
    promptId: EntityId.nullish(),
    workspaceId: WorkspaceId.nullish(),
    parentContentId: EntityId.nullish(),
    attachments: AttachmentIds,
  })
  .refine((body) => body.message !== '' || body.attachments.length > 0, {
    path: ['message'],
    error: 'Please enter a message',
  });
export type GenerateReplyBody = z.infer<typeof GenerateReplyBody>;

/** The multipart field name of one template input: 'inputs[subject]'. */
export function inputFieldName(variable: string): string {
  return `inputs[${variable}]`;
}

const INPUT_FIELD = /^inputs\[(.+)\]$/;

/** Gathers `inputs[name]` fields (flat, or already nested by the parser) into `inputs`. */
function fromMultipart(fields: unknown): unknown {
  if (typeof fields !== 'object' || fields === null) return fields;
  const { inputs: nested, workspaceId, ...rest } = fields as Record<string, unknown>;
  const inputs: Record<string, unknown> = typeof nested === 'object' && nested ? { ...nested } : {};
  const others: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    const variable = INPUT_FIELD.exec(key)?.[1];
    if (variable === undefined) others[key] = value;
    else inputs[variable] = value;
  }
  const noWorkspace = workspaceId === undefined || workspaceId === '' || workspaceId === 'null';
  return { ...others, inputs, workspaceId: noWorkspace ? null : workspaceId };
}

/** Text fields of POST /api/generate-with-image (multipart; the image is the `file` part). */
export const GenerateWithImageFields = z.preprocess(
  fromMultipart,
  z.object({
    promptId: PromptRef,
    model: ImageModel,
    inputs: TemplateInputs,
    workspaceId: WorkspaceId.nullable(),
  }),
);
export type GenerateWithImageFields = z.infer<typeof GenerateWithImageFields>;

/** `b64_json` comes with gpt-image-1 only. */
export const GenerateResponse = z.object({
  result: z
    .object({
      text: z.string().optional(),
      imageUrl: ResourceUrl.optional(),
      b64_json: z.string().optional(),
    })
    .refine((result) => result.text !== undefined || result.imageUrl !== undefined, {
      error: 'A result has a text or an image',
    }),
  content: z.object({ id: EntityId }),
});
export type GenerateResponse = z.infer<typeof GenerateResponse>;

export const GenerateReplyResponse = z.object({
  result: z.object({ text: z.string() }),
  content: z.object({ id: EntityId }),
});
export type GenerateReplyResponse = z.infer<typeof GenerateReplyResponse>;

/**
 * Streaming (beyond the specification): POST /api/generate and /api/generate-reply with
 * `Accept: text/event-stream` answer `text/event-stream` with these events, each
 * `event: <name>\ndata: <JSON>\n\n`:
 * - `delta` {text}: the next piece of the answer (coalesced, never the whole text again);
 * - `done`: the same body as the JSON answer (GenerateResponse), once, last;
 * - `error`: an ErrorBody plus the HTTP status it would have had, last; nothing is saved.
 * A request refused before the stream starts (validation, access) answers a plain JSON error.
 * A client that disconnects stops the provider call; what was produced is saved with
 * metadata.stopped = true.
 */
export const GENERATION_STREAM_EVENTS = { delta: 'delta', done: 'done', error: 'error' } as const;

export const StreamDelta = z.object({ text: z.string() });
export type StreamDelta = z.infer<typeof StreamDelta>;

export const StreamError = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
});
export type StreamError = z.infer<typeof StreamError>;

/** The header a client sets to make a generation safe to retry: one generation per key. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const UploadAttachmentsResponse = z.object({ files: z.array(Attachment) });
export type UploadAttachmentsResponse = z.infer<typeof UploadAttachmentsResponse>;

export const GENERATION_ROUTES = {
  generate: {
    method: 'POST',
    path: '/api/generate',
    service: 'generation',
    apiToken: 'generate',
    access: 'member',
    body: GenerateBody,
    response: GenerateResponse,
  },
  generateReply: {
    method: 'POST',
    path: '/api/generate-reply',
    service: 'generation',
    apiToken: 'generate',
    access: 'member',
    body: GenerateReplyBody,
    response: GenerateReplyResponse,
  },
  generateWithImage: {
    method: 'POST',
    path: '/api/generate-with-image',
    service: 'generation',
    apiToken: 'generate',
    access: 'member',
    body: GenerateWithImageFields,
    upload: { field: 'file', maxFiles: 1 },
    response: GenerateResponse,
  },
  /** Sent with x-workspace-id; checked with checkChatAttachments on both sides. */
  uploadChatAttachments: {
    method: 'POST',
    path: '/api/uploads/chat-attachments',
    service: 'generation',
    apiToken: 'generate',
    access: 'member',
    status: 201,
    upload: { field: 'files', maxFiles: MAX_CHAT_FILES },
    response: UploadAttachmentsResponse,
  },
  /** An attachment's bytes, for its owner (images inline, other files as a download). */
  chatAttachment: {
    method: 'GET',
    path: '/api/uploads/chat-attachments/:id',
    service: 'generation',
    apiToken: 'read-contents',
    access: 'signed-in',
    params: z.object({ id: EntityId }),
    query: OptionalWorkspaceQuery,
    response: FILE_RESPONSE,
  },
  /** A generated image's bytes (members of its workspace). */
  generatedImage: {
    method: 'GET',
    path: '/api/images/:contentId',
    service: 'generation',
    apiToken: 'read-contents',
    access: 'signed-in',
    params: z.object({ contentId: EntityId }),
    query: OptionalWorkspaceQuery,
    response: FILE_RESPONSE,
  },
} as const satisfies Record<string, RouteDef>;
