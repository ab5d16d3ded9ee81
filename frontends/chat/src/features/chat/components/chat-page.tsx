import { gptTitle, usePageTitle, useWorkspace } from '@aict/web-kit';
import styles from './chat-page.module.css';

/** The chat screen (placeholder: the conversation, input and history panel come later). */
export function ChatPage() {
  const { currentWorkspace } = useWorkspace();
  usePageTitle('Chat');
  return (
    <section className={styles.page} aria-labelledby="chat-title">
      <h1 id="chat-title" className={styles.title}>
        {gptTitle(currentWorkspace?.name)}
      </h1>
      <div className={styles.empty}>
        <p className={styles.prompt}>How can I help you today?</p>
      </div>
    </section>
  );
}
