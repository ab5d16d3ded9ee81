import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Attachment } from '@aict/contracts';
import {
  Button,
  Icon,
  Spinner,
  Textarea,
  checkChatAttachments,
  formatFileSize,
  toast,
  uploadChatAttachments,
  cn,
  localizeAttachmentProblem,
  useTranslation,
} from '@aict/web-kit';
import { ALLOWED_CHAT_MIME_TYPES } from '@aict/contracts/constants';
import { speechErrorMessage, speechRecognition, type SpeechRecognitionLike } from '../lib/speech';
import styles from './chat.module.css';

export interface ChatInputProps {
  text: string;
  onTextChange: (text: string) => void;
  attachments: Attachment[];
  onAttachmentsChange: (attachments: Attachment[]) => void;
  onSend: () => void;
  onStop: () => void;
  generating: boolean;
  disabled?: boolean;
  /** Why the input is disabled, shown under it and read with it. */
  disabledReason?: string;
  /** Focus the message box when it becomes usable (not on touch screens: no keyboard pop-up). */
  autoFocus?: boolean;
}

const ACCEPT = [
  ...ALLOWED_CHAT_MIME_TYPES,
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.pdf',
  '.doc',
  '.docx',
  '.txt',
].join(',');

/**
 * The message box (SPEC §2, §5): Enter sends, Shift+Enter adds a newline; a paperclip and
 * drag-and-drop attach files, checked before upload and uploaded at once; voice input when the
 * browser has speech recognition; a stop button while an answer streams.
 */
export function ChatInput({
  text,
  onTextChange,
  attachments,
  onAttachmentsChange,
  onSend,
  onStop,
  generating,
  disabled = false,
  disabledReason,
  autoFocus = false,
}: ChatInputProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const reasonId = useId();
  useEffect(() => {
    // Not from a control outside the chat screen: the box becomes ready a moment after the
    // page, and taking the focus then would close a header menu the person has just opened.
    // Without scrolling: what sits above the chat (the set-up checklist) stays in view.
    const focused = document.activeElement;
    const screen = textarea.current?.closest('[data-chat-screen]');
    const free = !focused || focused === document.body || Boolean(screen?.contains(focused));
    if (autoFocus && !disabled && free) textarea.current?.focus({ preventScroll: true });
  }, [autoFocus, disabled]);
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);

  async function attach(files: File[]) {
    if (files.length === 0) return;
    const problem = checkChatAttachments([
      ...attachments.map((file) => ({
        name: file.originalName,
        type: file.mimeType,
        size: file.size,
      })),
      ...files,
    ]);
    if (problem) {
      toast({ ...localizeAttachmentProblem(problem), variant: 'destructive' });
      return;
    }
    setUploading(true);
    try {
      const uploaded = await uploadChatAttachments(files);
      onAttachmentsChange([...attachments, ...uploaded]);
      toast({
        title: t('chat.filesUploaded'),
        description: t('chat.filesUploadedText', { count: uploaded.length }),
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: t('chat.uploadFailed'),
        description: error instanceof Error ? error.message : String(error),
        variant: 'destructive',
      });
    } finally {
      setUploading(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!generating && !uploading) onSend();
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    void attach(Array.from(event.dataTransfer?.files ?? []));
  }

  return (
    <div
      className={cn(styles.composer, dragging && styles.dragging)}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="composer"
    >
      {dragging && (
        <div className={styles.dropHint} aria-hidden="true">
          {t('chat.dropHint')}
        </div>
      )}
      {(attachments.length > 0 || uploading) && (
        <ul className={styles.chips} aria-label={t('chat.attachments')}>
          {attachments.map((file) => (
            <li key={file.id} className={styles.chip}>
              <span className={styles.chipName}>{file.originalName}</span>
              <span className={styles.chipSize}>{formatFileSize(file.size)}</span>
              <button
                type="button"
                className={styles.chipRemove}
                aria-label={t('chat.removeFile', { name: file.originalName })}
                onClick={() => onAttachmentsChange(attachments.filter((a) => a.id !== file.id))}
              >
                <Icon size={14}>
                  <path d="M18 6 6 18M6 6l12 12" />
                </Icon>
              </button>
            </li>
          ))}
          {uploading && (
            <li className={styles.chip}>
              <Spinner size="sm" label={t('chat.uploading')} />
            </li>
          )}
        </ul>
      )}
      <div className={styles.inputRow}>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={ACCEPT}
          className="wk-sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="file-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            void attach(files);
          }}
        />
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('chat.attachFiles')}
          disabled={disabled || uploading}
          onClick={() => fileInput.current?.click()}
        >
          <Icon>
            <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
          </Icon>
        </Button>
        <Textarea
          ref={textarea}
          className={styles.textarea}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.message')}
          rows={1}
          value={text}
          disabled={disabled}
          aria-describedby={disabled && disabledReason ? reasonId : undefined}
          onChange={(event) => onTextChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <VoiceInput
          disabled={disabled}
          onTranscript={(words) => onTextChange(joinWords(text, words))}
        />
        {generating ? (
          <Button
            size="icon"
            variant="secondary"
            aria-label={t('chat.stopGenerating')}
            onClick={onStop}
          >
            <Icon>
              <rect x="6" y="6" width="12" height="12" rx="1" />
            </Icon>
          </Button>
        ) : (
          <Button
            size="icon"
            aria-label={t('chat.send')}
            disabled={disabled || uploading}
            onClick={onSend}
          >
            <Icon>
              <path d="m22 2-7 20-4-9-9-4 20-7z" />
              <path d="M22 2 11 13" />
            </Icon>
          </Button>
        )}
      </div>
      {disabled && disabledReason && (
        <p id={reasonId} className={styles.disabledReason}>
          {disabledReason}
        </p>
      )}
    </div>
  );
}

function joinWords(text: string, words: string): string {
  if (!words) return text;
  return text && !/\s$/.test(text) ? `${text} ${words}` : `${text}${words}`;
}

/** Dictation with the browser's SpeechRecognition (Dutch); not rendered without it. */
function VoiceInput({
  onTranscript,
  disabled,
}: {
  onTranscript: (words: string) => void;
  disabled: boolean;
}) {
  const Recognition = speechRecognition();
  const [listening, setListening] = useState(false);
  const { t } = useTranslation();
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const latest = useRef(onTranscript);
  latest.current = onTranscript;
  useEffect(() => () => recognition.current?.stop(), []);
  if (!Recognition) return null;

  function toggle() {
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const instance = new Recognition!();
    instance.lang = 'nl-NL';
    instance.interimResults = false;
    instance.continuous = false;
    instance.onresult = (event) => {
      const words: string[] = [];
      for (let i = event.resultIndex; i < event.results.length; i += 1) {
        const result = event.results[i];
        if (result?.isFinal && result[0]) words.push(result[0].transcript.trim());
      }
      latest.current(words.join(' '));
    };
    instance.onend = () => setListening(false);
    instance.onerror = (event) => {
      setListening(false);
      if (event.error !== 'aborted' && event.error !== 'no-speech') {
        toast({
          title: t('chat.voiceFailed'),
          description: speechErrorMessage(event.error),
          variant: 'destructive',
        });
      }
    };
    recognition.current = instance;
    setListening(true);
    instance.start();
  }

  return (
    <Button
      variant={listening ? 'secondary' : 'ghost'}
      size="icon"
      aria-label={listening ? t('chat.stopVoice') : t('chat.startVoice')}
      aria-pressed={listening}
      disabled={disabled}
      onClick={toggle}
    >
      <Icon>
        <rect x="9" y="2" width="6" height="12" rx="3" />
        <path d="M19 10v2a7 7 0 0 1-14 0v-2M12 19v3" />
      </Icon>
    </Button>
  );
}
