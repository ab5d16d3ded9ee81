import { Link } from 'react-router-dom';
import { buttonClass } from '@aict/web-kit';
import { RequireAdmin } from '../../../lib/admin-access';
import { Page } from '../../../lib/page';
import styles from '../../../lib/page.module.css';

/** The prompt list (placeholder: filters, cards and empty states come later). */
export function PromptsPage() {
  return (
    <RequireAdmin>
      <Page title="Prompts" description="Reusable prompt templates of this workspace.">
        <div className={styles.actions}>
          <Link to="/prompts/create" className={buttonClass()}>
            Create Prompt
          </Link>
        </div>
      </Page>
    </RequireAdmin>
  );
}
