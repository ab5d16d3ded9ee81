import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { WorkspaceId } from '../ids';
import { SettingResponse } from '../entities/setting';
import { ImageModel, requiredText, TextModel } from '../primitives';
import { WorkspaceParams, type RouteDef } from './route';

export const ApiKeyBody = z.object({ value: requiredText('API key', FIELD_LIMITS.apiKey) });
export type ApiKeyBody = z.infer<typeof ApiKeyBody>;

export const DefaultTextModelBody = z.object({ value: TextModel });
export type DefaultTextModelBody = z.infer<typeof DefaultTextModelBody>;

export const DefaultImageModelBody = z.object({ value: ImageModel });
export type DefaultImageModelBody = z.infer<typeof DefaultImageModelBody>;

/** No workspace: test the global key. */
export const TestConnectionBody = z.object({ workspaceId: WorkspaceId.nullish() });
export type TestConnectionBody = z.infer<typeof TestConnectionBody>;

export const TestConnectionResponse = z.object({ success: z.boolean(), message: z.string() });
export type TestConnectionResponse = z.infer<typeof TestConnectionResponse>;

export const ModelsResponse = z.array(z.string());
export type ModelsResponse = z.infer<typeof ModelsResponse>;

export const SETTINGS_ROUTES = {
  /** The key is masked in every response (maskSecret); value null when unset. */
  getWorkspaceApiKey: {
    method: 'GET',
    path: '/api/workspaces/:id/settings/openai_api_key',
    params: WorkspaceParams,
    response: SettingResponse,
  },
  putWorkspaceApiKey: {
    method: 'PUT',
    path: '/api/workspaces/:id/settings/openai_api_key',
    params: WorkspaceParams,
    body: ApiKeyBody,
    response: SettingResponse,
  },
  getGlobalApiKey: {
    method: 'GET',
    path: '/api/settings/openai_api_key',
    response: SettingResponse,
  },
  putGlobalApiKey: {
    method: 'PUT',
    path: '/api/settings/openai_api_key',
    body: ApiKeyBody,
    response: SettingResponse,
  },
  testConnection: {
    method: 'POST',
    path: '/api/test-openai-connection',
    body: TestConnectionBody,
    response: TestConnectionResponse,
  },
  getDefaultTextModel: {
    method: 'GET',
    path: '/api/settings/default_text_model',
    response: SettingResponse,
  },
  putDefaultTextModel: {
    method: 'PUT',
    path: '/api/settings/default_text_model',
    body: DefaultTextModelBody,
    response: SettingResponse,
  },
  getDefaultImageModel: {
    method: 'GET',
    path: '/api/settings/default_image_model',
    response: SettingResponse,
  },
  putDefaultImageModel: {
    method: 'PUT',
    path: '/api/settings/default_image_model',
    body: DefaultImageModelBody,
    response: SettingResponse,
  },
  textModels: { method: 'GET', path: '/api/models/text', response: ModelsResponse },
  imageModels: { method: 'GET', path: '/api/models/image', response: ModelsResponse },
} as const satisfies Record<string, RouteDef>;
