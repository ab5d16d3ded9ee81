import { simErrors } from '../lib/openai-errors';
import type { SimContext } from '../request-context';

/** The models the simulator offers (SPEC §9: text and image models). */
export const SIM_MODELS = [
  'gpt-4o',
  'gpt-4-turbo',
  'gpt-3.5-turbo',
  'dall-e-3',
  'gpt-image-1',
] as const;

const CREATED = 1_715_367_049;

const presentModel = (id: string) => ({
  id,
  object: 'model',
  created: CREATED,
  owned_by: 'system',
});

export function listModels(ctx: SimContext): void {
  ctx.json(200, { object: 'list', data: SIM_MODELS.map(presentModel) });
}

export function retrieveModel(ctx: SimContext, id: string): void {
  if (!(SIM_MODELS as readonly string[]).includes(id)) throw simErrors.modelNotFound(id);
  ctx.json(200, presentModel(id));
}

/** Chat models: the three offered, and their dated or sized variants (gpt-4o-mini, gpt-4o-2024-08-06). */
export function isChatModel(model: string): boolean {
  return ['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'].some(
    (id) => model === id || model.startsWith(`${id}-`),
  );
}
