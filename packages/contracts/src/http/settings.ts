import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { WorkspaceId } from '../ids';
import { SettingResponse } from '../entities/setting';
import { ImageModel, requiredText, TextModel } from '../primitives';
import { WorkspaceParams, type RouteDef } from './route';

export const ApiKeyBody = z.object({ value: requiredText('API key', FIELD_LIMITS.apiKey) });
export type ApiKeyBody = z.infer<typeof ApiKeyBody>;

/** The provider's base URL (OpenAI, Azure OpenAI, an OpenAI-compatible server), http(s). */
export const BaseUrlBody = z.object({
  value: requiredText('Base URL', FIELD_LIMITS.url).refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username;
    } catch {
      return false;
    }
  }, 'Base URL must be an http(s) URL without credentials, e.g. https://api.openai.com/v1'),
});
export type BaseUrlBody = z.infer<typeof BaseUrlBody>;

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
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    response: SettingResponse,
  },
  putWorkspaceApiKey: {
    method: 'PUT',
    path: '/api/workspaces/:id/settings/openai_api_key',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    body: ApiKeyBody,
    response: SettingResponse,
  },
  getGlobalApiKey: {
    method: 'GET',
    path: '/api/settings/openai_api_key',
    service: 'workspace',
    access: 'super-admin',
    response: SettingResponse,
  },
  putGlobalApiKey: {
    method: 'PUT',
    path: '/api/settings/openai_api_key',
    service: 'workspace',
    access: 'super-admin',
    body: ApiKeyBody,
    response: SettingResponse,
  },
  /** Clears the workspace's key: the global key applies again. */
  deleteWorkspaceApiKey: {
    method: 'DELETE',
    path: '/api/workspaces/:id/settings/openai_api_key',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    response: null,
  },
  deleteGlobalApiKey: {
    method: 'DELETE',
    path: '/api/settings/openai_api_key',
    service: 'workspace',
    access: 'super-admin',
    response: null,
  },
  /** The provider base URL (optional; unset: the global one, else the server's default). */
  getWorkspaceBaseUrl: {
    method: 'GET',
    path: '/api/workspaces/:id/settings/openai_base_url',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    response: SettingResponse,
  },
  putWorkspaceBaseUrl: {
    method: 'PUT',
    path: '/api/workspaces/:id/settings/openai_base_url',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    body: BaseUrlBody,
    response: SettingResponse,
  },
  deleteWorkspaceBaseUrl: {
    method: 'DELETE',
    path: '/api/workspaces/:id/settings/openai_base_url',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    response: null,
  },
  getGlobalBaseUrl: {
    method: 'GET',
    path: '/api/settings/openai_base_url',
    service: 'workspace',
    access: 'super-admin',
    response: SettingResponse,
  },
  putGlobalBaseUrl: {
    method: 'PUT',
    path: '/api/settings/openai_base_url',
    service: 'workspace',
    access: 'super-admin',
    body: BaseUrlBody,
    response: SettingResponse,
  },
  deleteGlobalBaseUrl: {
    method: 'DELETE',
    path: '/api/settings/openai_base_url',
    service: 'workspace',
    access: 'super-admin',
    response: null,
  },
  testConnection: {
    method: 'POST',
    path: '/api/test-openai-connection',
    service: 'workspace',
    access: 'workspace-admin',
    body: TestConnectionBody,
    response: TestConnectionResponse,
  },
  getDefaultTextModel: {
    method: 'GET',
    path: '/api/settings/default_text_model',
    service: 'workspace',
    access: 'signed-in',
    response: SettingResponse,
  },
  putDefaultTextModel: {
    method: 'PUT',
    path: '/api/settings/default_text_model',
    service: 'workspace',
    access: 'workspace-admin',
    body: DefaultTextModelBody,
    response: SettingResponse,
  },
  getDefaultImageModel: {
    method: 'GET',
    path: '/api/settings/default_image_model',
    service: 'workspace',
    access: 'signed-in',
    response: SettingResponse,
  },
  putDefaultImageModel: {
    method: 'PUT',
    path: '/api/settings/default_image_model',
    service: 'workspace',
    access: 'workspace-admin',
    body: DefaultImageModelBody,
    response: SettingResponse,
  },
  textModels: {
    method: 'GET',
    path: '/api/models/text',
    service: 'workspace',
    access: 'signed-in',
    response: ModelsResponse,
  },
  imageModels: {
    method: 'GET',
    path: '/api/models/image',
    service: 'workspace',
    access: 'signed-in',
    response: ModelsResponse,
  },
} as const satisfies Record<string, RouteDef>;
