import type { ErrorCode } from '@aict/contracts';

/**
 * Dutch wording of the server's default error messages (packages/contracts/src/errors.ts),
 * keyed by error code. `en` repeats the server's default so that only that exact text is
 * replaced: a thrower's more precise message (e.g. a validation problem) stays as sent.
 * A test checks every code is here and every `en` equals the contracts' default.
 */
export const ERROR_MESSAGES: Record<ErrorCode, { en: string; nl: string }> = {
  'AUTH.UNAUTHENTICATED': { en: 'Not authenticated', nl: 'Je bent niet ingelogd.' },
  'AUTH.INVALID_CREDENTIALS': {
    en: 'Invalid username or password',
    nl: 'Onjuiste gebruikersnaam of wachtwoord.',
  },
  'AUTH.FORBIDDEN': {
    en: 'You do not have permission to do this',
    nl: 'Je hebt geen toestemming om dit te doen.',
  },
  'VALIDATION.FAILED': { en: 'Invalid request', nl: 'Ongeldig verzoek.' },
  NOT_FOUND: { en: 'Not found', nl: 'Niet gevonden.' },
  'USER.NOT_FOUND': { en: 'User not found', nl: 'Gebruiker niet gevonden.' },
  'USER.USERNAME_TAKEN': {
    en: 'Username already exists',
    nl: 'Deze gebruikersnaam bestaat al.',
  },
  'USER.EMAIL_TAKEN': { en: 'Email already exists', nl: 'Dit e-mailadres bestaat al.' },
  'USER.CANNOT_DELETE_SELF': {
    en: 'Cannot Delete Self: You cannot delete your own account.',
    nl: 'Je kunt je eigen account niet verwijderen.',
  },
  'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN': {
    en: 'You cannot change your own super admin status.',
    nl: 'Je kunt je eigen superbeheerdersstatus niet wijzigen.',
  },
  'USER.NOT_CREATED': {
    en: 'The user could not be added to the workspace, so it was not created. Please try again.',
    nl: 'De gebruiker kon niet aan de werkruimte worden toegevoegd en is dus niet aangemaakt. Probeer het opnieuw.',
  },
  'WORKSPACE.NOT_FOUND': { en: 'Workspace not found', nl: 'Werkruimte niet gevonden.' },
  'WORKSPACE.NAME_TAKEN': {
    en: 'A workspace with this name already exists',
    nl: 'Er bestaat al een werkruimte met deze naam.',
  },
  'WORKSPACE.DEFAULT_NOT_DELETABLE': {
    en: 'Cannot Delete Default Workspace',
    nl: 'De standaardwerkruimte kan niet worden verwijderd.',
  },
  'WORKSPACE.FORBIDDEN': {
    en: 'You are not a member of this workspace',
    nl: 'Je bent geen lid van deze werkruimte.',
  },
  'MEMBERSHIP.NOT_FOUND': {
    en: 'User is not a member of this workspace',
    nl: 'Deze gebruiker is geen lid van deze werkruimte.',
  },
  'MEMBERSHIP.LAST_ADMIN': {
    en: 'A workspace needs at least one admin. Make another member an admin first.',
    nl: 'Een werkruimte heeft minstens één beheerder nodig. Maak eerst een ander lid beheerder.',
  },
  'MEMBERSHIP.USER_NOT_MANAGEABLE': {
    en: 'You can only add users who belong to workspaces you administer.',
    nl: 'Je kunt alleen gebruikers toevoegen uit werkruimtes die jij beheert.',
  },
  'SETTING.NOT_FOUND': { en: 'Setting not found', nl: 'Instelling niet gevonden.' },
  'PROMPT.NOT_FOUND': { en: 'Prompt Not Found', nl: 'Prompt niet gevonden.' },
  'PROMPT.DEFAULT_NOT_FOUND': {
    en: 'No default prompt configured for this workspace',
    nl: 'Er is geen standaardprompt ingesteld voor deze werkruimte.',
  },
  'PROMPT.REFERENCE_LIMIT': {
    en: 'You can only upload up to 4 reference images.',
    nl: 'Je kunt maximaal 4 referentieafbeeldingen uploaden.',
  },
  'CONTENT.NOT_FOUND': { en: 'Content not found', nl: 'Inhoud niet gevonden.' },
  'FILE.NOT_FOUND': { en: 'File not found', nl: 'Bestand niet gevonden.' },
  'FILE.INVALID_TYPE': {
    en: 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
    nl: 'Alleen PNG-, JPG-, JPEG-, WebP-, PDF-, DOC-, DOCX- en TXT-bestanden zijn toegestaan.',
  },
  'FILE.TOO_LARGE': {
    en: 'Each file must be smaller than 10MB.',
    nl: 'Elk bestand moet kleiner zijn dan 10 MB.',
  },
  'FILE.TOO_MANY': {
    en: 'You can attach a maximum of 10 files.',
    nl: 'Je kunt maximaal 10 bestanden toevoegen.',
  },
  'FILE.TOTAL_TOO_LARGE': {
    en: 'Total file size cannot exceed 30MB.',
    nl: 'De bestanden samen mogen niet groter zijn dan 30 MB.',
  },
  'PROVIDER.KEY_MISSING': {
    en: 'No API key is configured for this workspace or globally',
    nl: 'Er is geen API-sleutel ingesteld voor deze werkruimte of globaal.',
  },
  'PROVIDER.INVALID_KEY': {
    en: 'The AI provider rejected the API key',
    nl: 'De AI-aanbieder heeft de API-sleutel geweigerd.',
  },
  'PROVIDER.RATE_LIMITED': {
    en: 'The AI provider is rate limiting requests',
    nl: 'De AI-aanbieder krijgt te veel verzoeken. Probeer het zo nog eens.',
  },
  'PROVIDER.QUOTA_EXCEEDED': {
    en: 'The AI provider account has run out of credit. Ask an administrator to check the plan and billing.',
    nl: 'Het tegoed bij de AI-aanbieder is op. Vraag een beheerder het abonnement en de facturering te controleren.',
  },
  'PROVIDER.UNAVAILABLE': {
    en: 'The AI provider is unavailable',
    nl: 'De AI-aanbieder is niet bereikbaar.',
  },
  'PROVIDER.TIMEOUT': {
    en: 'The AI provider did not answer in time',
    nl: 'De AI-aanbieder antwoordde niet op tijd.',
  },
  'PROVIDER.URL_NOT_ALLOWED': {
    en: 'The base URL points at a private, loopback or link-local address',
    nl: 'De basis-URL wijst naar een privé-, loopback- of link-local-adres.',
  },
  'PROVIDER.TRUNCATED': {
    en: 'The AI provider stopped answering half-way, please try again',
    nl: 'De AI-aanbieder stopte halverwege. Probeer het opnieuw.',
  },
  'FILE.UNREADABLE': {
    en: 'The file could not be read',
    nl: 'Het bestand kon niet worden gelezen.',
  },
  'GENERATION.MODEL_NOT_ALLOWED': {
    en: 'This model cannot be used for this prompt',
    nl: 'Dit model kan niet voor deze prompt worden gebruikt.',
  },
  'GENERATION.IDEMPOTENCY_CONFLICT': {
    en: 'This request was already sent with other data or is still running',
    nl: 'Dit verzoek is al verstuurd met andere gegevens of loopt nog.',
  },
  'GENERATION.WORKSPACE_BUSY': {
    en: 'This workspace already has many generations running. Please try again in a few seconds.',
    nl: 'In deze werkruimte lopen al veel generaties. Probeer het over een paar seconden opnieuw.',
  },
  'GENERATION.ACCESS_REVOKED': {
    en: 'Your access changed while this was being generated, so it was stopped and not saved.',
    nl: 'Je toegang is tijdens het genereren gewijzigd. Het is gestopt en niet opgeslagen.',
  },
  RATE_LIMITED: {
    en: 'Too many requests, please try again later',
    nl: 'Te veel verzoeken. Probeer het later opnieuw.',
  },
  'GATEWAY.UPSTREAM_UNAVAILABLE': {
    en: 'The service is unavailable, please try again.',
    nl: 'De dienst is niet bereikbaar. Probeer het opnieuw.',
  },
  'GATEWAY.UPSTREAM_TIMEOUT': {
    en: 'The service did not answer in time, please try again.',
    nl: 'De dienst antwoordde niet op tijd. Probeer het opnieuw.',
  },
  'GATEWAY.BODY_TOO_LARGE': {
    en: 'The request is too large to be accepted.',
    nl: 'Het verzoek is te groot.',
  },
  'GATEWAY.REQUEST_TIMEOUT': {
    en: 'The request was sent too slowly and was stopped. Please try again.',
    nl: 'Het verzoek werd te traag verstuurd en is gestopt. Probeer het opnieuw.',
  },
  'DATABASE.UNAVAILABLE': {
    en: 'The database is unavailable, please try again in a few seconds.',
    nl: 'De database is niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  },
  'STORAGE.UNAVAILABLE': {
    en: 'File storage is unavailable, please try again in a few seconds.',
    nl: 'De bestandsopslag is niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  },
  'SERVICE.UNAVAILABLE': {
    en: 'The service is briefly unavailable, please try again in a few seconds.',
    nl: 'De dienst is even niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  },
  INTERNAL: { en: 'Something went wrong', nl: 'Er ging iets mis.' },
};
