// Template variables, shared by server and client.
//
// Grammar:
// - `{name}` is a variable. Blanks just inside the braces are ignored (`{ name }` is `name`).
//   A name starts with a letter or '_' and goes on with letters, digits, '_', '-' or spaces,
//   64 characters at most: /^[A-Za-z_][A-Za-z0-9_ -]{0,63}$/. Names are case-sensitive.
// - `{{` and `}}` are a literal `{` and `}` (so `{{name}}` is the text "{name}").
// - Malformed: a `{` never closed, a lone `}`, an empty `{}`, a `{` inside a variable, or a
//   name that breaks the rule above. Write JSON and other braces as `{{ … }}`.
// - `{file}`: the reference image uploaded at generation time (image prompts); it is removed
//   from the filled text. `{language}`: the output language chosen by the user.

export const FILE_VARIABLE = 'file';
export const LANGUAGE_VARIABLE = 'language';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_ -]{0,63}$/;

export type TemplateErrorCode =
  | 'UNCLOSED_BRACE'
  | 'UNMATCHED_CLOSING_BRACE'
  | 'EMPTY_VARIABLE'
  | 'NESTED_BRACE'
  | 'INVALID_VARIABLE_NAME';

export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  constructor(
    readonly code: TemplateErrorCode,
    /** 0-based index of the offending character. */
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ParsedTemplate {
  /** Distinct variable names in order of first appearance, `file` and `language` included. */
  variables: string[];
  hasFile: boolean;
  hasLanguage: boolean;
}

type Token = { text: string } | { variable: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const char = template[i];
    const next = template[i + 1];
    if ((char === '{' && next === '{') || (char === '}' && next === '}')) {
      text += char;
      i += 2;
    } else if (char === '}') {
      throw new TemplateError(
        'UNMATCHED_CLOSING_BRACE',
        i,
        `Unmatched '}' at character ${i + 1}. Write '}}' for a literal brace.`,
      );
    } else if (char === '{') {
      const end = closingBrace(template, i);
      const name = template.slice(i + 1, end).trim();
      if (name === '') {
        throw new TemplateError('EMPTY_VARIABLE', i, `Empty variable '{}' at character ${i + 1}.`);
      }
      if (!VARIABLE_NAME.test(name)) {
        throw new TemplateError(
          'INVALID_VARIABLE_NAME',
          i,
          `Invalid variable name '${name}' at character ${i + 1}: use letters, digits, spaces, '_' or '-' (up to 64, starting with a letter or '_'). Write '{{' and '}}' for literal braces.`,
        );
      }
      if (text) tokens.push({ text });
      text = '';
      tokens.push({ variable: name });
      i = end + 1;
    } else {
      text += char;
      i += 1;
    }
  }
  if (text) tokens.push({ text });
  return tokens;
}

/** The index of the `}` that closes the variable opened at `start`. */
function closingBrace(template: string, start: number): number {
  for (let j = start + 1; j < template.length; j += 1) {
    if (template[j] === '}') return j;
    if (template[j] === '{') {
      throw new TemplateError(
        'NESTED_BRACE',
        j,
        `Unexpected '{' inside a variable at character ${j + 1}. Write '{{' for a literal brace.`,
      );
    }
  }
  throw new TemplateError(
    'UNCLOSED_BRACE',
    start,
    `Unclosed '{' at character ${start + 1}. Write '{{' for a literal brace.`,
  );
}

/** Throws a TemplateError when the template is malformed. */
export function parseTemplate(template: string): ParsedTemplate {
  const variables = new Set<string>();
  for (const token of tokenize(template)) {
    if ('variable' in token) variables.add(token.variable);
  }
  return {
    variables: [...variables],
    hasFile: variables.has(FILE_VARIABLE),
    hasLanguage: variables.has(LANGUAGE_VARIABLE),
  };
}

/** The TemplateError of a malformed template, or null. */
export function templateError(template: string): TemplateError | null {
  try {
    tokenize(template);
    return null;
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
}

export function isMalformedTemplate(template: string): boolean {
  return templateError(template) !== null;
}

/**
 * Replaces each `{name}` with `inputs[name]` (missing → ''), `{language}` with
 * `options.language` (else `inputs.language`, else ''), removes `{file}` and unescapes
 * `{{`/`}}`. Throws a TemplateError when the template is malformed.
 */
export function fillTemplate(
  template: string,
  inputs: Readonly<Record<string, string | undefined>>,
  options: { language?: string } = {},
): string {
  return tokenize(template)
    .map((token) => {
      if ('text' in token) return token.text;
      if (token.variable === FILE_VARIABLE) return '';
      if (token.variable === LANGUAGE_VARIABLE) {
        return options.language ?? ownValue(inputs, LANGUAGE_VARIABLE);
      }
      return ownValue(inputs, token.variable);
    })
    .join('');
}

/** `inputs[key]` if it is the object's own string ('constructor' and '__proto__' are not). */
function ownValue(inputs: Readonly<Record<string, string | undefined>>, key: string): string {
  const value = Object.hasOwn(inputs, key) ? inputs[key] : undefined;
  return typeof value === 'string' ? value : '';
}
