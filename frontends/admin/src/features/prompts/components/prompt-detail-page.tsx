import { useParams } from 'react-router-dom';
import { Page } from '../../../lib/page';

/** Prompt detail and edit (placeholder: details and edit tabs come later). */
export function PromptDetailPage() {
  const { id } = useParams();
  return <Page title="Prompt Details" description={`Prompt ${id ?? ''}`} />;
}
