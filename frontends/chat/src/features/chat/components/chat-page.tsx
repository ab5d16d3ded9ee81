import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Attachment, ContentItem } from '@aict/contracts';
import {
  Button,
  Icon,
  Spinner,
  buttonClass,
  gptTitle,
  isAdminOf,
  toast,
  useIsMobile,
  usePageTitle,
  useSession,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import { NoDefaultPromptError, useDefaultPrompt } from '../api/get-default-prompt';
import { useChat } from '../hooks/use-chat';
import { EMPTY_MESSAGE_TOAST, canSend } from '../lib/chat-rules';
import { ChatInput } from './chat-input';
import { MessageList } from './message-list';
import styles from './chat.module.css';

/** What the chat screen hands the Content History panel beside it. */
export interface ChatHistorySlot {
  /** A text item was chosen: load its conversation. */
  onOpenConversation: (item: ContentItem) => void;
  onNewChat: () => void;
  /** The conversation shown now (highlighted). */
  activeId: string | null;
  /** Mobile only: the panel is a sheet over the chat. */
  mobileOpen: boolean;
  onMobileOpenChange: (open: boolean) => void;
}

/**
 * The chat screen (SPEC §2 Chat screen, §4 Chat) with the Content History panel, which the
 * app passes in (`renderHistory`): features never import each other.
 */
export function ChatPage({
  renderHistory,
}: {
  renderHistory: (slot: ChatHistorySlot) => ReactNode;
}) {
  const { currentWorkspace, currentWorkspaceId } = useWorkspace();
  const { t } = useTranslation();
  const title = gptTitle(currentWorkspace?.name);
  usePageTitle(title);
  // loads with the screen; send reads it from the cache
  const defaultPrompt = useDefaultPrompt(currentWorkspaceId);
  const chat = useChat();
  const { user } = useSession();
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const isMobile = useIsMobile();
  const [historyOpen, setHistoryOpen] = useState(false);
  const readOnly = chat.mode === 'viewing';
  // a new chat needs the workspace's default prompt: without one, say so before anything is
  // typed (a loaded conversation can still be continued: replies need no prompt)
  const notSetUp =
    defaultPrompt.error instanceof NoDefaultPromptError &&
    chat.mode === 'new' &&
    chat.parentId === null;
  const isAdmin = isAdminOf(user, currentWorkspaceId);

  async function send() {
    if (!canSend(text, attachments.length)) {
      toast({ ...EMPTY_MESSAGE_TOAST, variant: 'destructive' });
      return;
    }
    const sentText = text;
    setText('');
    const answered = await chat.send(sentText, attachments);
    if (answered) setAttachments([]);
    else setText((current) => current || sentText);
  }

  function newChat() {
    chat.newChat();
    setText('');
    setAttachments([]);
  }

  return (
    <div className={styles.screen} data-chat-screen>
      <section className={styles.chat} aria-labelledby="chat-title">
        <header className={styles.header}>
          {chat.mode !== 'new' && (
            <Button variant="ghost" size="icon" aria-label={t('chat.backToNew')} onClick={newChat}>
              <Icon>
                <path d="m12 19-7-7 7-7M19 12H5" />
              </Icon>
            </Button>
          )}
          <h1 id="chat-title" className={styles.title}>
            {title}
          </h1>
          {isMobile && (
            <Button
              variant="outline"
              size="sm"
              className={styles.historyToggle}
              aria-expanded={historyOpen}
              onClick={() => setHistoryOpen(true)}
            >
              <Icon>
                <path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l4 2" />
              </Icon>
              {t('chat.history')}
            </Button>
          )}
        </header>

        <div className={styles.body}>
          {chat.loadingConversation ? (
            <div className={styles.center}>
              <Spinner label={t('chat.loadingConversation')} />
            </div>
          ) : notSetUp ? (
            <div className={styles.center}>
              <div className={styles.notSetUp} role="region" aria-labelledby="chat-not-set-up">
                <h2 id="chat-not-set-up" className={styles.notSetUpTitle}>
                  {t('chat.notSetUpTitle')}
                </h2>
                <p id="chat-not-set-up-text" className={styles.notSetUpText}>
                  {isAdmin ? t('chat.notSetUpAdmin') : t('chat.notSetUpMember')}
                </p>
                {isAdmin && (
                  <Link to="/prompts" className={buttonClass({ size: 'sm' })}>
                    {t('chat.notSetUpAction')}
                  </Link>
                )}
              </div>
            </div>
          ) : chat.messages.length === 0 ? (
            <div className={styles.center}>
              <p className={styles.empty}>{t('chat.empty')}</p>
            </div>
          ) : (
            <MessageList
              messages={chat.messages}
              onRegenerate={chat.canRegenerate ? () => void chat.regenerate() : undefined}
            />
          )}
        </div>

        {readOnly ? (
          <div className={styles.viewing}>
            <p>{t('chat.viewing')}</p>
            <Button onClick={chat.continueConversation}>{t('chat.continue')}</Button>
          </div>
        ) : (
          <ChatInput
            text={text}
            onTextChange={setText}
            attachments={attachments}
            onAttachmentsChange={setAttachments}
            onSend={() => void send()}
            onStop={chat.stop}
            generating={chat.generating}
            disabled={chat.loadingConversation || currentWorkspaceId === null || notSetUp}
            disabledReason={notSetUp ? t('chat.notSetUpReason') : undefined}
            autoFocus={!isMobile}
          />
        )}
      </section>
      {renderHistory({
        onOpenConversation: chat.openFromHistory,
        onNewChat: newChat,
        activeId: chat.parentId,
        mobileOpen: historyOpen,
        onMobileOpenChange: setHistoryOpen,
      })}
    </div>
  );
}
