import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/page-title';

/**
 * A screen of a remote: its heading (also the page title, SPEC §1), an optional description
 * and actions beside the heading (e.g. a 'Create Prompt' link), then its content.
 */
export function Page({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className="wk-page" aria-labelledby="page-title">
      <header className="wk-page__header">
        <div className="wk-page__heading">
          <h1 id="page-title" className="wk-page__title">
            {title}
          </h1>
          {description && <p className="wk-page__description">{description}</p>}
        </div>
        {actions && <div className="wk-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
