import type { ErrorCode } from '@aict/contracts';

/**
 * Dutch wording of the server's default error messages, keyed by error code. The English
 * default lives in one place, ERROR_DEFAULT_MESSAGES of '@aict/contracts/constants' (the
 * server's ERRORS take it from there): only a message equal to it is replaced, so a thrower's
 * more precise message stays as sent (validation messages: localize-validation.ts).
 */
export const DUTCH_ERROR_MESSAGES: Record<ErrorCode, string> = {
  'AUTH.UNAUTHENTICATED': 'Je bent niet ingelogd.',
  'AUTH.INVALID_CREDENTIALS': 'Onjuiste gebruikersnaam of wachtwoord.',
  'AUTH.FORBIDDEN': 'Je hebt geen toestemming om dit te doen.',
  'VALIDATION.FAILED': 'Ongeldig verzoek.',
  NOT_FOUND: 'Niet gevonden.',
  'USER.NOT_FOUND': 'Gebruiker niet gevonden.',
  'USER.USERNAME_TAKEN': 'Deze gebruikersnaam bestaat al.',
  'USER.EMAIL_TAKEN': 'Dit e-mailadres bestaat al.',
  'USER.CANNOT_DELETE_SELF': 'Je kunt je eigen account niet verwijderen.',
  'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN': 'Je kunt je eigen superbeheerdersstatus niet wijzigen.',
  'USER.NOT_CREATED':
    'De gebruiker kon niet aan de werkruimte worden toegevoegd en is dus niet aangemaakt. Probeer het opnieuw.',
  'WORKSPACE.NOT_FOUND': 'Werkruimte niet gevonden.',
  'WORKSPACE.NAME_TAKEN': 'Er bestaat al een werkruimte met deze naam.',
  'WORKSPACE.DEFAULT_NOT_DELETABLE': 'De standaardwerkruimte kan niet worden verwijderd.',
  'WORKSPACE.FORBIDDEN': 'Je bent geen lid van deze werkruimte.',
  'MEMBERSHIP.NOT_FOUND': 'Deze gebruiker is geen lid van deze werkruimte.',
  'MEMBERSHIP.LAST_ADMIN':
    'Een werkruimte heeft minstens één beheerder nodig. Maak eerst een ander lid beheerder.',
  'MEMBERSHIP.USER_NOT_MANAGEABLE':
    'Je kunt alleen gebruikers toevoegen uit werkruimtes die jij beheert.',
  'SETTING.NOT_FOUND': 'Instelling niet gevonden.',
  'PROMPT.NOT_FOUND': 'Prompt niet gevonden.',
  'PROMPT.DEFAULT_NOT_FOUND': 'Er is geen standaardprompt ingesteld voor deze werkruimte.',
  'PROMPT.REFERENCE_LIMIT': 'Je kunt maximaal 4 referentieafbeeldingen uploaden.',
  'CONTENT.NOT_FOUND': 'Inhoud niet gevonden.',
  'FILE.NOT_FOUND': 'Bestand niet gevonden.',
  'FILE.INVALID_TYPE':
    'Alleen PNG-, JPG-, JPEG-, WebP-, PDF-, DOC-, DOCX- en TXT-bestanden zijn toegestaan.',
  'FILE.TOO_LARGE': 'Elk bestand moet kleiner zijn dan 10 MB.',
  'FILE.TOO_MANY': 'Je kunt maximaal 10 bestanden toevoegen.',
  'FILE.TOTAL_TOO_LARGE': 'De bestanden samen mogen niet groter zijn dan 30 MB.',
  'PROVIDER.KEY_MISSING': 'Er is geen API-sleutel ingesteld voor deze werkruimte of globaal.',
  'PROVIDER.INVALID_KEY': 'De AI-aanbieder heeft de API-sleutel geweigerd.',
  'PROVIDER.RATE_LIMITED': 'De AI-aanbieder krijgt te veel verzoeken. Probeer het zo nog eens.',
  'PROVIDER.QUOTA_EXCEEDED':
    'Het tegoed bij de AI-aanbieder is op. Vraag een beheerder het abonnement en de facturering te controleren.',
  'PROVIDER.UNAVAILABLE': 'De AI-aanbieder is niet bereikbaar.',
  'PROVIDER.TIMEOUT': 'De AI-aanbieder antwoordde niet op tijd.',
  'PROVIDER.URL_NOT_ALLOWED': 'De basis-URL wijst naar een privé-, loopback- of link-local-adres.',
  'PROVIDER.TRUNCATED': 'De AI-aanbieder stopte halverwege. Probeer het opnieuw.',
  'FILE.UNREADABLE': 'Het bestand kon niet worden gelezen.',
  'GENERATION.MODEL_NOT_ALLOWED': 'Dit model kan niet voor deze prompt worden gebruikt.',
  'CONTENT.REVIEW_CONFLICT':
    'De reviewstatus van deze content is gewijzigd. Laad opnieuw en probeer het nog eens.',
  'GENERATION.IDEMPOTENCY_CONFLICT':
    'Dit verzoek is al verstuurd met andere gegevens of loopt nog.',
  'GENERATION.WORKSPACE_BUSY':
    'In deze werkruimte lopen al veel generaties. Probeer het over een paar seconden opnieuw.',
  'GENERATION.ACCESS_REVOKED':
    'Je toegang is tijdens het genereren gewijzigd. Het is gestopt en niet opgeslagen.',
  'GENERATION.BUDGET_REACHED': 'Deze workspace heeft het maandbudget bereikt',
  'GENERATION.USER_CAP_REACHED': 'Je hebt je maandlimiet in deze workspace bereikt',
  'GENERATION.RATE_LIMITED': 'Je genereert te snel. Probeer het over een minuut opnieuw.',
  RATE_LIMITED: 'Te veel verzoeken. Probeer het later opnieuw.',
  'GATEWAY.UPSTREAM_UNAVAILABLE': 'De dienst is niet bereikbaar. Probeer het opnieuw.',
  'GATEWAY.UPSTREAM_TIMEOUT': 'De dienst antwoordde niet op tijd. Probeer het opnieuw.',
  'GATEWAY.BODY_TOO_LARGE': 'Het verzoek is te groot.',
  'GATEWAY.REQUEST_TIMEOUT':
    'Het verzoek werd te traag verstuurd en is gestopt. Probeer het opnieuw.',
  'DATABASE.UNAVAILABLE':
    'De database is niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  'STORAGE.UNAVAILABLE':
    'De bestandsopslag is niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  'SERVICE.UNAVAILABLE':
    'De dienst is even niet bereikbaar. Probeer het over een paar seconden opnieuw.',
  INTERNAL: 'Er ging iets mis.',
};
