import { inputFieldName, type GenerateResponse, type TemplateInputs } from '@aict/contracts';
import { apiJson } from '@aict/web-kit';

/** POST /api/generate for an image prompt (no language, SPEC §7). */
export function generateImage(body: {
  promptId: string;
  inputs: TemplateInputs;
  model?: string;
  workspaceId: number | null;
}): Promise<GenerateResponse> {
  return apiJson<GenerateResponse>('POST', '/api/generate', body);
}

/** POST /api/generate-with-image: multipart with the reference image as `file`. */
export function generateImageWithFile({
  promptId,
  model,
  file,
  inputs,
  workspaceId,
}: {
  promptId: string;
  model: string;
  file: File;
  inputs: TemplateInputs;
  workspaceId: number | null;
}): Promise<GenerateResponse> {
  const form = new FormData();
  form.append('promptId', promptId);
  form.append('model', model);
  for (const [name, value] of Object.entries(inputs)) form.append(inputFieldName(name), value);
  form.append('workspaceId', workspaceId === null ? '' : String(workspaceId));
  form.append('file', file, file.name);
  return apiJson<GenerateResponse>('POST', '/api/generate-with-image', form);
}
