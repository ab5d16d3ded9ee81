import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatMessage } from '@aict/contracts';
import {
  Button,
  Label,
  Markdown,
  Spinner,
  Textarea,
  cn,
  useTranslation,
  CopyIcon,
  SendIcon,
  StopIcon,
} from '@aict/web-kit';
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
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const replyId = useId();
  const busy = streaming !== null;
  const list = useRef<HTMLOListElement>(null);
  const lastAnswer = [...messages].reverse().find((m) => m.role === 'assistant')?.content ?? '';

  // A new message (the result, a reply, the answer being written) shows below the form or the
  // earlier turns: bring its start into view (scroll-padding keeps it clear of the header).
  const count = messages.length;
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [count, busy]);

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
          {t('generation.result')}
        </h2>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyToClipboard(lastAnswer)}
          disabled={!lastAnswer}
        >
          <CopyIcon />
          {t('generation.copyToClipboard')}
        </Button>
      </div>
      <ol ref={list} className={styles.thread} aria-label={t('generation.conversation')}>
        {messages.map((message, index) => (
          <li
            key={index}
            className={cn(styles.message, styles[message.role])}
            aria-label={message.role === 'user' ? t('generation.you') : t('generation.assistant')}
          >
            {message.role === 'assistant' ? (
              <Markdown>{message.content}</Markdown>
            ) : (
              message.content
            )}
          </li>
        ))}
        {streaming !== null && (
          <li
            className={cn(styles.message, styles.assistant)}
            aria-label={t('generation.assistant')}
            aria-busy
          >
            {streaming ? (
              <Markdown>{streaming}</Markdown>
            ) : (
              <Spinner size="sm" label={t('generation.generatingLabel')} />
            )}
          </li>
        )}
      </ol>
      <div>
        <Label htmlFor={replyId}>{t('generation.reply')}</Label>
        <div className={styles.replyBox}>
          <Textarea
            id={replyId}
            rows={2}
            placeholder={t('generation.replyPlaceholder')}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          {busy ? (
            <Button
              variant="outline"
              size="icon"
              aria-label={t('generation.stopGenerating')}
              onClick={onStop}
            >
              <StopIcon />
            </Button>
          ) : (
            <Button size="icon" aria-label={t('generation.sendReply')} onClick={() => void send()}>
              <SendIcon />
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
