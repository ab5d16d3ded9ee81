// Business constants and limits of SPEC §9 (and the few fixed values of §3, §5 and §7 that
// several packages need). Plain values only: schemas live beside their use.
import type { ErrorCode } from './errors';

// Models and prompt categories
export const CONTENT_TYPES = ['text', 'image'] as const;
export const TEXT_MODELS = ['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'] as const;
export const IMAGE_MODELS = ['dall-e-3', 'gpt-image-1'] as const;
export const DEFAULT_TEXT_MODEL = 'gpt-4o' satisfies (typeof TEXT_MODELS)[number];
export const DEFAULT_IMAGE_MODEL = 'dall-e-3' satisfies (typeof IMAGE_MODELS)[number];
/** The image model that takes reference images, returns base64 data and downloads as .png. */
export const GPT_IMAGE_MODEL = 'gpt-image-1' satisfies (typeof IMAGE_MODELS)[number];
export const MODELS_BY_CONTENT_TYPE = { text: TEXT_MODELS, image: IMAGE_MODELS } as const;
export const DEFAULT_MODEL_BY_CONTENT_TYPE = {
  text: DEFAULT_TEXT_MODEL,
  image: DEFAULT_IMAGE_MODEL,
} as const;
export const CATEGORIES = ['Marketing', 'Technical', 'Creative', 'Business'] as const;
export const DEFAULT_CATEGORY = 'Marketing' satisfies (typeof CATEGORIES)[number];

// Roles, themes
export const ROLES = ['admin', 'user'] as const;
export const THEMES = ['light', 'dark', 'system'] as const;

// Chat attachments (SPEC §5): a file must be strictly smaller than MAX_CHAT_FILE_BYTES;
// the total may equal MAX_CHAT_TOTAL_BYTES.
export const MAX_CHAT_FILES = 10;
export const MAX_CHAT_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_CHAT_TOTAL_BYTES = 30 * 1024 * 1024;
export const ALLOWED_CHAT_MIME_TYPES = [
  'image/png',
  'image/jpg',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
] as const;

// Prompts, history, skeletons
export const MAX_REFERENCE_IMAGES = 4;
/** Largest image accepted anywhere (logo, reference image, generate-with-image, chat), in pixels. */
export const MAX_IMAGE_PIXELS = 25_000_000;
export const HISTORY_TITLE_MAX = 60;
export const HISTORY_PREVIEW_MAX = 80;
export const SKELETON_COUNT = 6;

// Accounts and workspaces
export const PASSWORD_MIN_LENGTH = 6;
export const DEFAULT_WORKSPACE_ID = 1;

// Languages
export const CHAT_LANGUAGE = 'nl';
export const DEFAULT_CONTENT_LANGUAGE = 'en';

// Screens
export const STATS_ITEMS = { prompts: 3, text: 2, images: 4 } as const;
export const SETTINGS_TABS = ['api-keys', 'users', 'workspaces'] as const;
export const DEFAULT_SETTINGS_TAB = 'api-keys' satisfies (typeof SETTINGS_TABS)[number];

// Data fetching (no polling except the prompt list; refetch on focus and mount; no retries)
export const PROMPTS_REFETCH_MS = 15_000;
export const PROMPTS_STALE_MS = 10_000;
export const QUERY_STALE_MS = 60_000;
export const CACHE_GC_MS = 300_000;
export const QUERY_RETRY = false;

// UI timings and sizes
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: 'F8',
} as const;
export const TOOLTIP = { delayMs: 700, skipDelayMs: 300 } as const;
export const SCROLL_HIDE_DELAY_MS = 600;
export const BREAKPOINTS = { mobile: 768, historyPinned: 1024 } as const;
export const HISTORY_PANEL = { widthPx: 350, widthSmPx: 400, collapsedWidthPx: 48 } as const;

// Browser storage, settings keys, headers
export const STORAGE_KEYS = { currentWorkspaceId: 'currentWorkspaceId', theme: 'theme' } as const;
/** Session storage: the saved continue-conversation record (SPEC §3). */
export const SESSION_STORAGE_KEYS = { continueConversation: 'continueConversation' } as const;
export const SETTINGS_KEYS = {
  openaiApiKey: 'openai_api_key',
  defaultTextModel: 'default_text_model',
  defaultImageModel: 'default_image_model',
} as const;
/**
 * The optional provider base URL setting (per workspace and global). Kept out of SETTINGS_KEYS,
 * which lists the settings SPEC §3 names; SettingKey accepts both.
 */
export const OPENAI_BASE_URL_KEY = 'openai_base_url';
/** A workspace's brand voice (JSON; issue 18), read and written through its own routes. */
export const BRAND_VOICE_KEY = 'brand_voice';
/** Workspace logos: PNG, JPEG or WebP (checked by content), at most this many bytes. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Header names are case-insensitive; Node lower-cases them. */
export const WORKSPACE_HEADER = 'x-workspace-id';
export const REQUEST_ID_HEADER = 'x-request-id';

// Field length limits (our choice; the SPEC gives none)
export const FIELD_LIMITS = {
  usernameMin: 3,
  usernameMax: 50,
  emailMax: 254,
  passwordMax: 200,
  workspaceName: 100,
  workspaceDescription: 1000,
  promptName: 200,
  promptDescription: 2000,
  promptTemplate: 20_000,
  variableName: 64,
  inputValue: 20_000,
  inputCount: 50,
  message: 20_000,
  conversationMessages: 200,
  /** Characters of a reply's whole conversationHistory (it goes to the provider each time). */
  conversationChars: 200_000,
  contentTitle: 200,
  language: 50,
  searchQuery: 200,
  reviewComment: 1000,
  cursor: 200,
  apiKey: 500,
  url: 2048,
  fileName: 255,
} as const;

/**
 * The default message of each error code (packages/contracts/src/errors.ts ERRORS adds the HTTP
 * status). Here, in the zod-free entry, so that web-kit can show them in another language
 * without loading zod (see rspack/index.mjs).
 */
export const ERROR_DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  'AUTH.UNAUTHENTICATED': 'Not authenticated',
  'AUTH.INVALID_CREDENTIALS': 'Invalid username or password',
  'AUTH.FORBIDDEN': 'You do not have permission to do this',
  'VALIDATION.FAILED': 'Invalid request',
  NOT_FOUND: 'Not found',
  'USER.NOT_FOUND': 'User not found',
  'USER.USERNAME_TAKEN': 'Username already exists',
  'USER.EMAIL_TAKEN': 'Email already exists',
  'USER.CANNOT_DELETE_SELF': 'Cannot Delete Self: You cannot delete your own account.',
  'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN': 'You cannot change your own super admin status.',
  'USER.NOT_CREATED':
    'The user could not be added to the workspace, so it was not created. Please try again.',
  'WORKSPACE.NOT_FOUND': 'Workspace not found',
  'WORKSPACE.NAME_TAKEN': 'A workspace with this name already exists',
  'WORKSPACE.DEFAULT_NOT_DELETABLE': 'Cannot Delete Default Workspace',
  'WORKSPACE.FORBIDDEN': 'You are not a member of this workspace',
  'MEMBERSHIP.NOT_FOUND': 'User is not a member of this workspace',
  'MEMBERSHIP.LAST_ADMIN':
    'A workspace needs at least one admin. Make another member an admin first.',
  'MEMBERSHIP.USER_NOT_MANAGEABLE':
    'You can only add users who belong to workspaces you administer.',
  'SETTING.NOT_FOUND': 'Setting not found',
  'PROMPT.NOT_FOUND': 'Prompt Not Found',
  'PROMPT.DEFAULT_NOT_FOUND': 'No default prompt configured for this workspace',
  'PROMPT.REFERENCE_LIMIT': 'You can only upload up to 4 reference images.',
  'CONTENT.NOT_FOUND': 'Content not found',
  'CONTENT.REVIEW_CONFLICT': 'The review state of this content has changed. Reload and try again.',
  'FILE.NOT_FOUND': 'File not found',
  'FILE.INVALID_TYPE': 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
  'FILE.TOO_LARGE': 'Each file must be smaller than 10MB.',
  'FILE.TOO_MANY': 'You can attach a maximum of 10 files.',
  'FILE.TOTAL_TOO_LARGE': 'Total file size cannot exceed 30MB.',
  'PROVIDER.KEY_MISSING': 'No API key is configured for this workspace or globally',
  'PROVIDER.INVALID_KEY': 'The AI provider rejected the API key',
  'PROVIDER.RATE_LIMITED': 'The AI provider is rate limiting requests',
  'PROVIDER.QUOTA_EXCEEDED':
    'The AI provider account has run out of credit. Ask an administrator to check the plan and billing.',
  'PROVIDER.UNAVAILABLE': 'The AI provider is unavailable',
  'PROVIDER.TIMEOUT': 'The AI provider did not answer in time',
  'PROVIDER.URL_NOT_ALLOWED': 'The base URL points at a private, loopback or link-local address',
  'PROVIDER.TRUNCATED': 'The AI provider stopped answering half-way, please try again',
  'FILE.UNREADABLE': 'The file could not be read',
  'GENERATION.MODEL_NOT_ALLOWED': 'This model cannot be used for this prompt',
  'GENERATION.IDEMPOTENCY_CONFLICT':
    'This request was already sent with other data or is still running',
  'GENERATION.WORKSPACE_BUSY':
    'This workspace already has many generations running. Please try again in a few seconds.',
  'GENERATION.ACCESS_REVOKED':
    'Your access changed while this was being generated, so it was stopped and not saved.',
  'GENERATION.BUDGET_REACHED': 'This workspace has reached its monthly budget',
  'GENERATION.USER_CAP_REACHED': 'You have reached your monthly usage limit in this workspace',
  'GENERATION.RATE_LIMITED': 'You are generating too quickly. Please try again in a minute.',
  RATE_LIMITED: 'Too many requests, please try again later',
  'GATEWAY.UPSTREAM_UNAVAILABLE': 'The service is unavailable, please try again.',
  'GATEWAY.UPSTREAM_TIMEOUT': 'The service did not answer in time, please try again.',
  'GATEWAY.BODY_TOO_LARGE': 'The request is too large to be accepted.',
  'GATEWAY.REQUEST_TIMEOUT': 'The request was sent too slowly and was stopped. Please try again.',
  'DATABASE.UNAVAILABLE': 'The database is unavailable, please try again in a few seconds.',
  'STORAGE.UNAVAILABLE': 'File storage is unavailable, please try again in a few seconds.',
  'SERVICE.UNAVAILABLE': 'The service is briefly unavailable, please try again in a few seconds.',
  INTERNAL: 'Something went wrong',
};
