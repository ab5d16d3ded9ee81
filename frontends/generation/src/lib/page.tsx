import type { ReactNode } from 'react';
import { usePageTitle } from '@aict/web-kit';
import styles from './page.module.css';

/** A screen of this remote: its heading (also the page title) and its content. */
export function Page({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className={styles.header}>
        <h1 id="page-title" className={styles.title}>
          {title}
        </h1>
        {description && <p className={styles.description}>{description}</p>}
      </header>
      {children}
    </section>
  );
}
