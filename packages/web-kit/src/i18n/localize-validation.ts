import { en } from './en';
import { i18n, currentLanguage, type Language } from './i18n';

// The contracts' validation messages ('Name is required', a template error, …) in the chosen
// language. The English wording is written once, in en.ts `validation`, as the pattern the
// contracts' message matches (a test renders each one and compares it with the contracts'
// own message); a match is shown with the same key's text of the chosen language. A message
// that matches no pattern stays as it is.

type PatternKey = Exclude<keyof typeof en.validation, 'labels'>;

/** Stand-ins for braces, which i18next would read as interpolation. */
const BRACES = { lb: '{', rb: '}' } as const;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Pattern {
  key: PatternKey;
  regex: RegExp;
  names: string[];
}

function compile(key: PatternKey, template: string): Pattern {
  const names: string[] = [];
  const source = template
    .split(/({{\s*\w+\s*}})/)
    .map((part) => {
      const name = /^{{\s*(\w+)\s*}}$/.exec(part)?.[1];
      if (!name) return escape(part);
      if (name in BRACES) return escape(BRACES[name as keyof typeof BRACES]);
      names.push(name);
      return '(.+?)';
    })
    .join('');
  return { key, regex: new RegExp(`^${source}$`, 's'), names };
}

const PATTERNS: Pattern[] = (Object.keys(en.validation) as (keyof typeof en.validation)[])
  .filter((key): key is PatternKey => key !== 'labels')
  .map((key) => compile(key, en.validation[key]));

const LABELS = en.validation.labels as Record<string, string>;

/** `message` (a contracts validation message) in `language`; unknown messages stay as they are. */
export function localizeValidationMessage(
  message: string,
  language: Language = currentLanguage(),
): string {
  if (language === 'en') return message;
  for (const pattern of PATTERNS) {
    const match = pattern.regex.exec(message);
    if (!match) continue;
    const values: Record<string, string> = { ...BRACES };
    pattern.names.forEach((name, index) => {
      const value = match[index + 1] ?? '';
      values[name] =
        name === 'label' && value in LABELS
          ? i18n.t(`validation.labels.${value as keyof typeof en.validation.labels}`, {
              lng: language,
            })
          : value;
    });
    return i18n.t(`validation.${pattern.key}`, { ...values, lng: language });
  }
  return message;
}

/** The English text of a pattern with `values` (the test compares it with the contracts). */
export function englishValidationMessage(key: PatternKey, values: Record<string, unknown>) {
  return i18n.t(`validation.${key}`, { ...BRACES, ...values, lng: 'en' });
}

type Issues = ReadonlyArray<{ path: PropertyKey[]; message: string }>;

/** The first message of each field of a failed schema parse, in the chosen language. */
export function fieldErrors<Field extends string = string>(
  issues: Issues,
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of issues)
    errors[String(issue.path[0] ?? '') as Field] ??= localizeValidationMessage(issue.message);
  return errors;
}
