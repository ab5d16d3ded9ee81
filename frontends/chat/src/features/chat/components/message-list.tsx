import { useEffect, useRef, useState } from 'react';
import { Button, Icon, Markdown, cn, toast, useTranslation } from '@aict/web-kit';
import type { ScreenMessage } from '../lib/chat-rules';
import { speakableText, speechSynthesisApi } from '../lib/speech';
import styles from './chat.module.css';

/**
 * The conversation: user and assistant bubbles, the typing indicator, and under each finished
 * answer copy and read-aloud buttons; the last one also regenerate when `onRegenerate` is given.
 */
export function MessageList({
  messages,
  onRegenerate,
}: {
  messages: readonly ScreenMessage[];
  onRegenerate?: () => void;
}) {
  const endRef = useRef<HTMLLIElement>(null);
  const { t } = useTranslation();
  const last = messages.at(-1);
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, last?.content]);

  return (
    <ol className={styles.messages} aria-label={t('chat.messages')}>
      {messages.map((message) => (
        <li
          key={message.id}
          className={cn(styles.message, message.role === 'user' ? styles.user : styles.assistant)}
          aria-label={message.role === 'user' ? t('chat.you') : t('chat.assistant')}
        >
          <div className={styles.bubble}>
            {message.role === 'assistant' ? (
              message.content === '' && message.streaming ? (
                <p className={styles.typing} role="status">
                  {t('chat.typing')}
                </p>
              ) : (
                <Markdown>{message.content}</Markdown>
              )
            ) : (
              <p className={styles.userText}>{message.content}</p>
            )}
            {message.attachments && message.attachments.length > 0 && (
              <ul className={styles.sentFiles} aria-label={t('chat.attachedFiles')}>
                {message.attachments.map((name, index) => (
                  <li key={`${name}-${index}`} className={styles.sentFile}>
                    <Icon size={14}>
                      <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
                    </Icon>
                    {name}
                  </li>
                ))}
              </ul>
            )}
            {message.stopped && <p className={styles.note}>{t('chat.stopped')}</p>}
          </div>
          {message.role === 'assistant' && !message.streaming && message.content !== '' && (
            <div className={styles.answerActions}>
              <CopyAnswer text={message.content} />
              <ReadAloud text={message.content} />
              {onRegenerate && message === last && (
                <Button
                  variant="ghost"
                  size="icon"
                  className={styles.readAloud}
                  aria-label={t('chat.regenerate')}
                  title={t('chat.regenerate')}
                  onClick={onRegenerate}
                >
                  <Icon>
                    <path d="M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5" />
                  </Icon>
                </Button>
              )}
            </div>
          )}
        </li>
      ))}
      <li ref={endRef} aria-hidden="true" className={styles.end} />
    </ol>
  );
}

/** Copies an answer's text (its Markdown) to the clipboard. */
function CopyAnswer({ text }: { text: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: t('chat.copied'), variant: 'success' });
    } catch {
      toast({ title: t('chat.copyFailed'), variant: 'destructive' });
    }
  }

  return (
    <Button
      variant="ghost"
      size="icon"
      className={styles.readAloud}
      aria-label={t('chat.copy')}
      title={t('chat.copy')}
      onClick={() => void copy()}
    >
      <Icon>
        {copied ? (
          <path d="M20 6 9 17l-5-5" />
        ) : (
          <>
            <rect x="9" y="9" width="13" height="13" rx="2" />
            <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
          </>
        )}
      </Icon>
    </Button>
  );
}

/** Reads an answer aloud with the browser's speech synthesis; absent when there is none. */
function ReadAloud({ text }: { text: string }) {
  const synthesis = speechSynthesisApi();
  const [speaking, setSpeaking] = useState(false);
  const { t } = useTranslation();
  useEffect(() => () => void (speaking && synthesis?.cancel()), [speaking, synthesis]);
  if (!synthesis) return null;

  function toggle() {
    if (!synthesis) return;
    synthesis.cancel();
    if (speaking) {
      setSpeaking(false);
      return;
    }
    const utterance = new SpeechSynthesisUtterance(speakableText(text));
    utterance.lang = 'nl-NL';
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    setSpeaking(true);
    synthesis.speak(utterance);
  }

  return (
    <Button
      variant="ghost"
      size="icon"
      className={styles.readAloud}
      aria-label={speaking ? t('chat.stopReading') : t('chat.readAloud')}
      aria-pressed={speaking}
      onClick={toggle}
    >
      <Icon>
        <path d="M11 5 6 9H2v6h4l5 4V5z" />
        {!speaking && <path d="M15.54 8.46a5 5 0 0 1 0 7.07M19.07 4.93a10 10 0 0 1 0 14.14" />}
        {speaking && <path d="m22 9-6 6M16 9l6 6" />}
      </Icon>
    </Button>
  );
}
