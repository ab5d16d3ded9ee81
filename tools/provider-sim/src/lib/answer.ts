import type { ChatSummary } from '../recorded-request';

const FILLER_WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

/**
 * The deterministic answer to a chat request: it echoes the last user message, counts the
 * images (and files) received, repeats every other text it was sent, then adds filler words.
 *
 *   Echo: <last user text>
 *   Images received: 2.
 *   Context: system: <text> | user: <text> | assistant: <text>
 *   Filler: lorem ipsum …
 */
export function composeAnswer(chat: ChatSummary, fillerTokens: number): string {
  const lines = [`Echo: ${chat.lastUserText}`, `Images received: ${chat.imageCount}.`];
  if (chat.fileCount > 0) lines.push(`Files received: ${chat.fileCount}.`);
  const lastUser = lastUserIndex(chat);
  const context = chat.messages
    .filter((message, index) => index !== lastUser && message.text.length > 0)
    .map((message) => `${message.role}: ${message.text}`);
  if (context.length > 0) lines.push(`Context: ${context.join(' | ')}`);
  if (fillerTokens > 0) lines.push(`Filler: ${filler(fillerTokens)}`);
  return lines.join('\n');
}

function lastUserIndex(chat: ChatSummary): number {
  for (let i = chat.messages.length - 1; i >= 0; i -= 1) {
    if (chat.messages[i]!.role === 'user') return i;
  }
  return -1;
}

function filler(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(FILLER_WORDS[i % FILLER_WORDS.length]!);
  return `${out.join(' ')}.`;
}

/** Splits text into "tokens" (a word with the whitespace after it); joining them gives the text back. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** A deterministic prompt-token estimate: ~4 characters a token, 4 per message, 85 per image. */
export function countPromptTokens(chat: ChatSummary): number {
  let tokens = 3;
  for (const message of chat.messages) tokens += 4 + Math.ceil(message.text.length / 4);
  return tokens + 85 * chat.imageCount;
}
