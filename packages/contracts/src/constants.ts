// Business constants and limits of SPEC §9 (and the few fixed values of §3, §5 and §7 that
// several packages need). Plain values only: schemas live beside their use.

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
  cursor: 200,
  apiKey: 500,
  url: 2048,
  fileName: 255,
} as const;
