import { OPENAI_BASE_URL_KEY, type ProviderConfig } from '@aict/contracts';
import { readBrandVoice } from './brand-voice';
import { resolveDefaultModel } from './default-models';
import type { DomainDeps } from './domain-deps';
import { readApiKey } from './provider-settings';
import { workspaceNotFound } from './workspace.errors';

/**
 * The provider settings that apply to a workspace (null: no workspace). The key is the
 * workspace's, else the global one. The base URL goes with the key: a workspace's own base
 * URL is used only with its own key, so that an admin of one workspace can never send the
 * global key to an address they chose. Without a setting, the operator's OPENAI_BASE_URL.
 */
export async function resolveProviderConfig(
  d: DomainDeps,
  workspaceId: number | null,
): Promise<ProviderConfig> {
  if (workspaceId !== null && !(await d.workspaces.findById(workspaceId)))
    throw workspaceNotFound();
  const [ownKey, globalKey, ownUrl, globalUrl, text, image, voice] = await Promise.all([
    workspaceId === null ? null : readApiKey(d, workspaceId),
    readApiKey(d, null),
    workspaceId === null ? null : d.settings.get(workspaceId, OPENAI_BASE_URL_KEY),
    d.settings.get(null, OPENAI_BASE_URL_KEY),
    resolveDefaultModel(d, 'text', workspaceId),
    resolveDefaultModel(d, 'image', workspaceId),
    workspaceId === null ? null : readBrandVoice(d, workspaceId),
  ]);

  const keySource = ownKey ? 'workspace' : globalKey ? 'global' : null;
  let baseUrl: string = d.config.OPENAI_BASE_URL;
  let baseUrlSource: ProviderConfig['baseUrlSource'] = 'environment';
  if (keySource !== 'global' && ownUrl) {
    baseUrl = ownUrl.value;
    baseUrlSource = 'workspace';
  } else if (globalUrl) {
    baseUrl = globalUrl.value;
    baseUrlSource = 'global';
  }
  return {
    apiKey: ownKey ?? globalKey ?? null,
    keySource,
    baseUrl,
    baseUrlSource,
    defaultTextModel: text.value as ProviderConfig['defaultTextModel'],
    defaultImageModel: image.value as ProviderConfig['defaultImageModel'],
    brandVoice: voice?.voice ?? null,
  };
}
