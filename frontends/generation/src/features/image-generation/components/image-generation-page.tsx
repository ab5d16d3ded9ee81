import { Page } from '../../../lib/page';

/** Image Generation (placeholder: prompt picker, variables, reference image come later). */
export function ImageGenerationPage() {
  return (
    <Page
      title="Image Generation"
      description="Pick a prompt template, fill in its variables and generate an image."
    />
  );
}
