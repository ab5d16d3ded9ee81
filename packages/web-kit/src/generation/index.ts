// Generation helpers shared by the chat and generation remotes (re-exported by web-kit's root).
export {
  IDEMPOTENCY_HEADER,
  STREAM_EVENTS,
  generateText,
  type GenerateTextOptions,
  type GenerationPath,
  type GenerationResult,
} from './generate-text';
export { readSseEvents, takeSseEvents, type SseEvent } from './sse';
export { Markdown, type MarkdownProps } from './markdown';
export {
  CHAT_ATTACHMENTS_PATH,
  UploadError,
  checkChatAttachments,
  formatFileSize,
  isAllowedChatMimeType,
  uploadChatAttachments,
} from './attachments';
