import { Page } from '../../../lib/page';

/** Text Generation (placeholder: prompt picker, variables, model, thread come later). */
export function TextGenerationPage() {
  return (
    <Page
      title="Text Generation"
      description="Pick a prompt template, fill in its variables and generate text."
    />
  );
}
