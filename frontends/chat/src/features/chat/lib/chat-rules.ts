import { DEFAULT_TEXT_MODEL } from '@aict/contracts/constants';
import type { ChatMessage } from '@aict/contracts';

// Pure rules of the chat screen (SPEC §4 Chat, §5 Chat sending).

/** SPEC §5: a message needs non-blank text or at least one attachment. */
export function canSend(text: string, attachmentCount: number): boolean {
  return text.trim() !== '' || attachmentCount > 0;
}

export const EMPTY_MESSAGE_TOAST = {
  title: 'Voer een bericht in',
  description: 'Je moet een vraag stellen of bestanden bijvoegen om een antwoord te krijgen.',
} as const;

export const NO_DEFAULT_PROMPT_TOAST = {
  title: 'Geen standaard prompt',
  description: 'Er is geen standaard prompt geconfigureerd voor deze workspace.',
} as const;

/** The model of a reply: the default prompt's, else gpt-4o (SPEC §7). */
export function replyModel(defaultPromptModel: string | null | undefined): string {
  return defaultPromptModel || DEFAULT_TEXT_MODEL;
}

/** A message of the screen: a chat message plus what the screen shows around it. */
export interface ScreenMessage extends ChatMessage {
  id: string;
  /** Names of the files sent with a user message. */
  attachments?: string[];
  /** The answer is still arriving. */
  streaming?: boolean;
  /** The user stopped the answer. */
  stopped?: boolean;
}

/** The history sent with a reply: the finished messages, role and content only. */
export function conversationHistory(messages: readonly ScreenMessage[]): ChatMessage[] {
  return messages
    .filter((message) => !message.streaming && message.content !== '')
    .map(({ role, content }) => ({ role, content }));
}

/** 'Gesprek geladen met N berichten: "{title}"' (SPEC §8). */
export function loadedDescription(count: number, title: string): string {
  return `Gesprek geladen met ${count} berichten: "${title}"`;
}

let sequence = 0;
export function messageId(): string {
  sequence += 1;
  return `m${Date.now().toString(36)}-${sequence}`;
}
