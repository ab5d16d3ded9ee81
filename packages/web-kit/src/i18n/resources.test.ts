import { ERRORS, ErrorCode } from '@aict/contracts';
import { ApiError, errorMessage } from '../api/http';
import { en } from './en';
import { ERROR_MESSAGES } from './error-messages';
import { applyLanguage, i18n } from './i18n';
import { nl } from './nl';
import { relativeTime } from './relative-time';

// The English resource is the source of truth: Dutch has exactly its keys, and every string
// SPEC quotes reads exactly as quoted (the chat's Dutch strings too).

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const english = flatten(en);
const dutch = flatten(nl as Tree);

// Where SPEC places a quoted string, and the key that shows it there.
const SPEC_QUOTES: Record<string, string> = {
  'shell.nav.textGeneration': 'Text Generation',
  'shell.nav.imageGeneration': 'Image Generation',
  'shell.nav.stats': 'Stats',
  'shell.nav.admin': 'Admin',
  'shell.nav.prompts': 'Prompts',
  'shell.nav.settings': 'Settings',
  'shell.workspace.none': 'No workspaces',
  'shell.workspace.placeholder': 'Select workspace',
  'shell.notFound.title': '404 Page Not Found',
  'shell.notFound.text': 'Did you forget to add the page to the router?',
  'shell.auth.login': 'Login',
  'shell.auth.register': 'Register',
  'shell.auth.loggingIn': 'Logging in...',
  'shell.auth.creatingAccount': 'Creating account...',
  'shell.auth.loginFailed': 'Login failed',
  'shell.auth.registrationFailed': 'Registration failed',
  'shell.logoutFailed': 'Logout failed',
  'shell.auth.loginSuccessful': 'Login successful',
  'shell.auth.welcomeBack': 'Welcome back, {{username}}!',
  'shell.auth.registrationSuccessful': 'Registration successful',
  'shell.auth.welcomeNew': 'Welcome, {{username}}!',
  'shell.loggedOut': 'Logged out',
  'shell.loggedOutText': 'You have been successfully logged out.',
  'chat.empty': 'How can I help you today?',
  'chat.placeholder': 'Ask me a question',
  'chat.dropHint': 'Drop files here to attach',
  'chat.typing': 'Aan het typen...',
  'chat.viewing': 'Viewing conversation history',
  'chat.continue': 'Continue this conversation',
  'chat.uploadFailed': 'Upload failed',
  'chat.filesUploaded': 'Files uploaded',
  'chat.filesUploadedText': 'Successfully uploaded {{count}} file(s)',
  'history.newChat': 'New Chat',
  'history.searchPlaceholder': 'Search content...',
  'history.footer': '{{count}} item(s)',
  'history.footerMatching': '{{count}} item(s) matching "{{query}}"',
  'history.failed': 'Failed to load conversations',
  'history.failedText': 'Please try again later',
  'history.empty': 'No content yet',
  'history.emptyText': 'Generate some content to see it here',
  'history.noMatch': 'No matching content',
  'history.noMatchText': 'Try adjusting your search terms',
  'common.imageGenerated': 'Image generated',
  'generation.generateText': 'Generate Text',
  'generation.generateImage': 'Generate Image',
  'generation.copyToClipboard': 'Copy to Clipboard',
  'generation.continueTitle': 'Continue Conversation',
  'generation.textTitle': 'Text Generation',
  'generation.imageTitle': 'Image Generation',
  'generation.copied': 'Copied to clipboard',
  'generation.copyFailed': 'Failed to copy',
  'generation.copyFailedText': 'Could not copy the content to clipboard',
  'generation.downloadFailed': 'Download failed',
  'generation.invalidFile': 'Invalid file',
  'generation.generateFailed': 'Failed to generate content',
  'generation.replyFailed': 'Failed to generate reply',
  'generation.imageFailed': 'Failed to generate image',
  'generation.imageWithFileFailed': 'Failed to generate image with file',
  'generation.contentGenerated': 'Content generated successfully',
  'generation.replyGenerated': 'Reply generated successfully',
  'generation.promptsFailed': 'Failed to fetch prompts',
  'generation.noPrompts': 'No prompts found',
  'generation.downloadImage': 'Download Image',
  'stats.title': 'Stats',
  'stats.totalPrompts': 'Total Prompts',
  'stats.textContent': 'Text Content',
  'stats.imagesGenerated': 'Images Generated',
  'stats.recentPrompts': 'Recent Prompts',
  'stats.recentText': 'Recent Text Content',
  'stats.recentImages': 'Recent Images',
  'stats.viewAll': 'View All',
  'stats.edit': 'Edit',
  'stats.run': 'Run',
  'contentHistory.fetchFailed': 'Failed to fetch contents',
};

afterEach(() => applyLanguage('en'));

describe('the language resources', () => {
  it('when a key exists in English, then it exists in Dutch, and the other way round', () => {
    expect(Object.keys(dutch).sort()).toEqual(Object.keys(english).sort());
  });

  it('when a key has a Dutch text, then it is not empty', () => {
    expect(Object.entries(dutch).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it('when SPEC quotes a string, then the English text at its place is exactly the quote', () => {
    const shown = Object.fromEntries(Object.keys(SPEC_QUOTES).map((key) => [key, english[key]]));
    expect(shown).toEqual(SPEC_QUOTES);
  });

  it('when SPEC quotes a Dutch chat string, then it stays Dutch in both languages', () => {
    expect(dutch['chat.typing']).toBe('Aan het typen...');
    expect(english['chat.typing']).toBe('Aan het typen...');
  });

  it('when a text has a placeholder in English, then the Dutch text has the same placeholders', () => {
    const names = (text: string) => (text.match(/{{\s*\w+\s*}}/g) ?? []).sort();
    const differing = Object.keys(english).filter(
      (key) => names(english[key]!).join() !== names(dutch[key] ?? '').join(),
    );
    expect(differing).toEqual([]);
  });
});

describe('server error messages in Dutch', () => {
  it('when the contracts define an error code, then it has a Dutch text and its English default is the server default', () => {
    const codes = Object.values(ErrorCode).sort();
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual(codes);
    for (const code of codes) expect(ERROR_MESSAGES[code].en).toBe(ERRORS[code].message);
  });

  it('when the language is Dutch and the server sends a known code with its default text, then the toast text is Dutch', () => {
    const body = JSON.stringify({
      code: 'AUTH.INVALID_CREDENTIALS',
      message: 'Invalid username or password',
    });
    applyLanguage('nl');
    expect(errorMessage(new ApiError(401, 'Unauthorized', body))).toBe(
      'Onjuiste gebruikersnaam of wachtwoord.',
    );
    applyLanguage('en');
    expect(errorMessage(new ApiError(401, 'Unauthorized', body))).toBe(
      'Invalid username or password',
    );
  });

  it('when the language is Dutch and the server sends a more precise or unknown message, then the server text is kept', () => {
    applyLanguage('nl');
    const precise = JSON.stringify({ code: 'VALIDATION.FAILED', message: 'Name is required' });
    const unknown = JSON.stringify({ code: 'SOMETHING.NEW', message: 'Something new happened' });
    expect(errorMessage(new ApiError(400, '', precise))).toBe('Name is required');
    expect(errorMessage(new ApiError(400, '', unknown))).toBe('Something new happened');
  });
});

describe('relative times', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('when the language is Dutch, then relative times read in Dutch', () => {
    applyLanguage('nl');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minuten geleden');
    expect(relativeTime(ago(3 * 3600 + 5), now)).toBe('3 uur geleden');
    expect(relativeTime(ago(20), now)).toBe('minder dan een minuut geleden');
  });

  it('when the language is English, then they read as SPEC quotes them', () => {
    expect(i18n.language).toBe('en');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
  });
});
