import { useId, useState, type KeyboardEvent } from 'react';
import type { ChatMessage } from '@aict/contracts';
import { Button, Label, Markdown, Spinner, Textarea, cn } from '@aict/web-kit';
import { CopyIcon, SendIcon, StopIcon } from '../../../lib/icons';
import { copyToClipboard } from '../../../lib/clipboard';
import styles from '../../../lib/generation.module.css';

export interface ThreadProps {
  messages: readonly ChatMessage[];
  /** The answer arriving now ('' before the first piece), or null when idle. */
  streaming: string | null;
  onReply: (message: string) => boolean | Promise<boolean>;
  onStop: () => void;
}

/** The result thread (SPEC §2): messages, 'Copy to Clipboard' and a reply box. */
export function Thread({ messages, streaming, onReply, onStop }: ThreadProps) {
  const [draft, setDraft] = useState('');
  const replyId = useId();
  const busy = streaming !== null;
  const lastAnswer = [...messages].reverse().find((m) => m.role === 'assistant')?.content ?? '';

  async function send() {
    if (busy) return;
    const sent = await onReply(draft);
    if (sent) setDraft('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <section className={styles.section} aria-labelledby={`${replyId}-title`}>
      <div className={styles.sectionHeader}>
        <h2 id={`${replyId}-title`} className={styles.sectionTitle}>
          Result
        </h2>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyToClipboard(lastAnswer)}
          disabled={!lastAnswer}
        >
          <CopyIcon />
          Copy to Clipboard
        </Button>
      </div>
      <ol className={styles.thread} aria-label="Conversation">
        {messages.map((message, index) => (
          <li
            key={index}
            className={cn(styles.message, styles[message.role])}
            aria-label={message.role === 'user' ? 'You' : 'Assistant'}
          >
            {message.role === 'assistant' ? (
              <Markdown>{message.content}</Markdown>
            ) : (
              message.content
            )}
          </li>
        ))}
        {streaming !== null && (
          <li className={cn(styles.message, styles.assistant)} aria-label="Assistant" aria-busy>
            {streaming ? (
              <Markdown>{streaming}</Markdown>
            ) : (
              <Spinner size="sm" label="Generating" />
            )}
          </li>
        )}
      </ol>
      <div>
        <Label htmlFor={replyId}>Reply</Label>
        <div className={styles.replyBox}>
          <Textarea
            id={replyId}
            rows={2}
            placeholder="Ask for changes... (Enter sends, Shift+Enter adds a line)"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          {busy ? (
            <Button variant="outline" size="icon" aria-label="Stop generating" onClick={onStop}>
              <StopIcon />
            </Button>
          ) : (
            <Button size="icon" aria-label="Send reply" onClick={() => void send()}>
              <SendIcon />
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
