import { Page } from '../../../lib/page';

/** Create prompt (placeholder: the form comes later). Admins only (see App.tsx). */
export function CreatePromptPage() {
  return <Page title="Create Prompt" description="A new prompt template for this workspace." />;
}
