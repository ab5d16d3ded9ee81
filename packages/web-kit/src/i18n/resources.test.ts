import {
  CreatePromptBody,
  ERRORS,
  ErrorCode,
  FIELD_LIMITS,
  RegisterBody,
  templateError,
} from '@aict/contracts';
import { ERROR_DEFAULT_MESSAGES } from '@aict/contracts/constants';
import { ApiError, errorMessage } from '../api/http';
import { en } from './en';
import { DUTCH_ERROR_MESSAGES } from './error-messages';
import { applyLanguage, i18n, registerLanguage } from './i18n';
import { englishValidationMessage, localizeValidationMessage } from './localize-validation';
import { nl } from './nl';
import { relativeTime } from './relative-time';

// Dutch is a chunk the pages load when shown (i18n.ts); here its texts are added up front.
registerLanguage('nl', nl);

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
  'admin.accessRequired': 'Admin Access Required',
  'admin.accessRequiredText': 'You need administrator privileges to access this page.',
  'admin.prompts.confirmTitle': 'Delete prompt?',
  'admin.prompts.confirmText':
    'This action cannot be undone. This will permanently delete the prompt.',
  'admin.prompts.createdByYou': 'Created by you',
  'admin.prompts.publicPrompt': 'Public prompt',
  'admin.prompts.empty': 'No prompts found',
  'admin.prompts.emptyText': 'There are no prompts available yet.',
  'admin.prompts.noMatch': 'No prompts match your selected filters',
  'admin.prompts.clearFilters': 'Clear Filters',
  'admin.prompts.deleted': 'Prompt deleted',
  'admin.prompts.deleteFailed': 'Failed to delete prompt',
  'admin.create.onlyAdmins': 'Only administrators can create new prompts.',
  'admin.create.created': 'Prompt created successfully',
  'admin.create.failed': 'Failed to create prompt',
  'admin.category_Marketing': 'Marketing',
  'admin.category_Technical': 'Technical',
  'admin.category_Creative': 'Creative',
  'admin.category_Business': 'Business',
  'admin.detail.detailsTab': 'Prompt Details',
  'admin.detail.editTab': 'Edit Prompt',
  'admin.detail.generateText': 'Generate Text',
  'admin.detail.generateImage': 'Generate Image',
  'admin.detail.notFound': 'Prompt Not Found',
  'admin.detail.fetchFailed': 'Failed to fetch prompt details',
  'admin.detail.updated': 'Prompt updated successfully',
  'admin.detail.updateFailed': 'Failed to update prompt',
  'admin.references.title': 'Reference Image',
  'admin.references.removeAll': 'Remove All',
  'admin.references.maxReached': 'Maximum images reached',
  'admin.references.invalidFile': 'Invalid file',
  'admin.references.invalidFileText': 'Please upload an image file.',
  'admin.references.uploadFailed': 'Upload failed',
  'admin.references.uploadFailedText': 'Failed to upload reference image.',
  'admin.references.removeFailed': 'Failed to remove',
  'admin.settings.title': 'Admin Settings',
  'admin.apiKeys.saveWorkspace': 'Save Workspace API Key',
  'admin.apiKeys.saveGlobal': 'Save Global API Key',
  'admin.apiKeys.testConnection': 'Test Connection',
  'admin.apiKeys.updated': 'API Key Updated',
  'admin.apiKeys.updateFailed': 'Failed to update API key',
  'admin.apiKeys.connectionSuccessful': 'Connection Successful',
  'admin.apiKeys.connectionFailed': 'Connection Failed',
  'admin.apiKeys.connectionTestFailed': 'Connection Test Failed',
  'admin.apiKeys.modelFailed_text': 'Failed to update default text model',
  'admin.apiKeys.modelFailed_image': 'Failed to update default image model',
  'admin.users.superAdmin': 'Super Admin',
  'admin.users.user': 'User',
  'admin.users.cannotDeleteSelf': 'Cannot Delete Self',
  'admin.users.cannotDeleteSelfText': 'You cannot delete your own account.',
  'admin.users.deleted': 'User Deleted',
  'admin.users.deleteFailed': 'Failed to delete user',
  'admin.addUser.title': 'Add New User',
  'admin.addUser.missingFields': 'Missing Fields',
  'admin.addUser.missingFieldsText': 'Please fill out all required fields.',
  'admin.addUser.failed': 'Failed to create user',
  'admin.addUser.created': 'User Created',
  'admin.addUser.assignFailed': 'Created User but Failed to Assign Workspace',
  'admin.resetPassword.title': 'Reset Password',
  'admin.resetPassword.missing': 'Missing Password',
  'admin.resetPassword.done': 'Password Reset',
  'admin.resetPassword.failed': 'Failed to reset password',
  'admin.editUser.title': 'Edit User',
  'admin.editUser.failed': 'Failed to update user',
  'admin.editUser.assignmentError': 'Workspace Assignment Error',
  'admin.editUser.assigned': 'User Assigned',
  'admin.editUser.workspacesUpdated': 'Workspaces Updated',
  'admin.editUser.updated': 'User Updated',
  'admin.workspaces.assignUsers': 'Assign Users',
  'admin.workspaces.cannotDeleteDefault': 'Cannot Delete Default Workspace',
  'admin.logo.uploadFailed': 'Upload Failed',
  'admin.logo.uploadFailedText': 'Failed to upload workspace logo.',
  'admin.logo.updated': 'Logo Updated',
  'admin.logo.uploaded': 'Logo Uploaded',
  'admin.assign.title': 'Assign Users',
  'kit.workspaceCreated': 'Workspace created',
  'kit.workspaceUpdated': 'Workspace updated',
  'kit.workspaceDeleted': 'Workspace deleted',
  'kit.userAddedToWorkspace': 'User Added to Workspace',
  'kit.userRemovedFromWorkspace': 'User Removed from Workspace',
  'kit.roleUpdated': 'Role Updated',
  'kit.errorCreatingWorkspace': 'Error creating workspace',
  'kit.errorUpdatingWorkspace': 'Error updating workspace',
  'kit.errorDeletingWorkspace': 'Error deleting workspace',
  'kit.errorAddingUser': 'Error adding user to workspace',
  'kit.errorRemovingUser': 'Error removing user from workspace',
  'kit.errorUpdatingRole': 'Error updating user role',
  'validation.passwordMin': 'Password must be at least {{min}} characters',
  'validation.email': 'Please enter a valid email',
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
  it('when the contracts define an error code, then it has a Dutch text and the server sends the one English default', () => {
    const codes = Object.values(ErrorCode).sort();
    expect(Object.keys(DUTCH_ERROR_MESSAGES).sort()).toEqual(codes);
    for (const code of codes) expect(ERRORS[code].message).toBe(ERROR_DEFAULT_MESSAGES[code]);
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
    const precise = JSON.stringify({ code: 'NOT_FOUND', message: 'No such page here' });
    const unknown = JSON.stringify({ code: 'SOMETHING.NEW', message: 'Something new happened' });
    expect(errorMessage(new ApiError(400, '', precise))).toBe('No such page here');
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

describe('contract validation messages in Dutch', () => {
  const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    (result.error?.issues ?? []).map((issue) => issue.message);

  it('when en.ts words a validation message, then it is exactly the message the contracts send', () => {
    const prompt = issues(
      CreatePromptBody.safeParse({
        name: ' ',
        description: 'x'.repeat(FIELD_LIMITS.promptDescription + 1),
        template: 'Hi {name',
        category: 'Other',
        contentType: 'text',
        model: '',
        isPublic: false,
        isDefault: false,
      }),
    );
    expect(prompt).toEqual(
      expect.arrayContaining([
        englishValidationMessage('required', { label: 'Name' }),
        englishValidationMessage('maxLength', {
          label: 'Description',
          max: FIELD_LIMITS.promptDescription,
        }),
        englishValidationMessage('templateUnclosed', { position: 4 }),
        englishValidationMessage('oneOf', {
          label: 'Category',
          values: 'Marketing, Technical, Creative, Business',
        }),
        englishValidationMessage('required', { label: 'Model' }),
      ]),
    );
    const register = issues(
      RegisterBody.safeParse({ username: 'jan', email: 'nope', password: '12345' }),
    );
    expect(register).toEqual(
      expect.arrayContaining([
        englishValidationMessage('email', {}),
        englishValidationMessage('passwordMin', { min: 6 }),
      ]),
    );
    const templates: [string, Parameters<typeof englishValidationMessage>][] = [
      ['a } b', ['templateUnmatched', { position: 3 }]],
      ['a {} b', ['templateEmpty', { position: 3 }]],
      ['{1x}', ['templateInvalidName', { name: '1x', position: 1 }]],
      ['{a {b}', ['templateNested', { position: 4 }]],
    ];
    for (const [template, [key, values]] of templates)
      expect(templateError(template)?.message).toBe(englishValidationMessage(key, values));
  });

  it('when the language is Dutch, then a contracts validation message reads in Dutch with its label translated', () => {
    expect(localizeValidationMessage('Name is required', 'nl')).toBe('Naam is verplicht');
    expect(localizeValidationMessage('Template is required', 'nl')).toBe('Template is verplicht');
    expect(localizeValidationMessage('Password must be at least 6 characters', 'nl')).toBe(
      'Het wachtwoord moet minstens 6 tekens hebben',
    );
    expect(localizeValidationMessage(templateError('Hi {name')!.message, 'nl')).toBe(
      "'{' niet gesloten bij teken 4. Schrijf '{{' voor een letterlijke accolade.",
    );
    expect(localizeValidationMessage('Name is required', 'en')).toBe('Name is required');
    expect(localizeValidationMessage('Something nobody wrote', 'nl')).toBe(
      'Something nobody wrote',
    );
  });

  it('when the server refuses a body in Dutch, then its validation message is shown in Dutch', () => {
    applyLanguage('nl');
    const body = JSON.stringify({ code: 'VALIDATION.FAILED', message: 'Category is required' });
    expect(errorMessage(new ApiError(400, '', body))).toBe('Categorie is verplicht');
  });
});
