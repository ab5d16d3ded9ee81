/** Output languages offered for a template's {language} (code sent, name filled in). */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'nl', name: 'Dutch' },
  { code: 'de', name: 'German' },
  { code: 'fr', name: 'French' },
  { code: 'es', name: 'Spanish' },
  { code: 'it', name: 'Italian' },
] as const;

export const languageName = (code: string) =>
  LANGUAGES.find((language) => language.code === code)?.name ?? code;
