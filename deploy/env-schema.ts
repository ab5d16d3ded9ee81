/**
 * Which environment variables a service's config module declares, read from its TypeScript
 * source (no import, no build): the `UPPER_CASE:` keys of its zod env schema, and whether each is
 * required (no `.optional()` / `.default()` / `.catch()`).
 *
 * It follows identifiers to other top-level declarations of the same file and of the shared
 * config module (packages/service-kit/src/config.ts), so
 *
 *     export const configSchema = baseServiceEnv.extend({ PORT: envPort.default(4103) });
 *
 * yields every key of service-kit's `baseServiceEnv` (through `httpEnv.extend({...mongoEnv.shape})`
 * and so on), with PORT made optional by the service's own override. Keys listed in
 * `.omit({ KEY: true })` are removed. It is a reader for the usual shapes, not a TypeScript
 * compiler: when it finds no key at all in a config file, the caller should fail loudly.
 */

export interface EnvKey {
  required: boolean;
  /** `file#declaration` where the key was (last) declared. */
  declaredIn: string;
}

export type EnvKeys = Map<string, EnvKey>;

interface Declaration {
  name: string;
  isType: boolean;
  /** Source with comments removed and string contents emptied. */
  text: string;
  file: string;
}

const DECLARATION =
  /^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(const|let|var|function|class|interface|type|enum)[ \t]+([A-Za-z_$][\w$]*)/gm;
const OPTIONAL = /\.\s*(?:optional|default|prefault|catch|nullish)\s*\(/;
const KEY = /([A-Z][A-Z0-9_]*)\s*:(?!:)/g;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/** Removes comments and empties string literals, keeping every other character in place. */
export function stripCommentsAndStrings(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? source.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`') {
      out += c + c;
      i++;
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\') i++;
        i++;
      }
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the bracket that closes the one at `open`. */
function matchBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** The expression after a key's colon, up to the comma or bracket that ends it. */
function valueAt(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return text.slice(start, i);
      depth--;
    } else if ((c === ',' || c === ';') && depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

export function parseDeclarations(source: string, file: string): Declaration[] {
  const text = stripCommentsAndStrings(source);
  const starts = [...text.matchAll(DECLARATION)];
  return starts.map((m, n) => ({
    name: m[2] ?? '',
    isType: m[1] === 'interface' || m[1] === 'type',
    text: text.slice(m.index, starts[n + 1]?.index ?? text.length),
    file,
  }));
}

interface OwnKeys {
  keys: Map<string, boolean>;
  removed: Set<string>;
}

function ownKeys(decl: Declaration, isOptionalRef: (name: string) => boolean): OwnKeys {
  let text = decl.text;
  const removed = new Set<string>();
  // `.omit({ KEY: true })`: removals, not declarations.
  for (const m of [...text.matchAll(/\.\s*omit\s*\(\s*\{/g)].reverse()) {
    const open = m.index + m[0].length - 1;
    const close = matchBracket(text, open);
    for (const k of text.slice(open, close).matchAll(KEY)) removed.add(k[1] ?? '');
    text = text.slice(0, open) + ' '.repeat(close - open) + text.slice(close);
  }
  const keys = new Map<string, boolean>();
  for (const m of text.matchAll(KEY)) {
    // A property of an object literal: preceded by `{` or `,` (not a ternary, not a type).
    const name = m[1];
    const before = text.slice(0, m.index).trimEnd();
    if (!name || (!before.endsWith('{') && !before.endsWith(','))) continue;
    const value = valueAt(text, m.index + m[0].length);
    const lead = /^\s*([A-Za-z_$][\w$]*)/.exec(value)?.[1];
    const optional = OPTIONAL.test(value) || (lead !== undefined && isOptionalRef(lead));
    keys.set(name, !optional);
  }
  return { keys, removed };
}

/**
 * The env keys declared by `source` (a config module), following references into `shared`
 * (the shared config module's source) when given.
 */
export function envKeysOf(
  source: { text: string; file: string },
  shared?: { text: string; file: string },
): EnvKeys {
  const local = parseDeclarations(source.text, source.file).filter((d) => !d.isType);
  const kit = shared ? parseDeclarations(shared.text, shared.file).filter((d) => !d.isType) : [];
  const localByName = new Map(local.map((d) => [d.name, d]));
  const kitByName = new Map(kit.map((d) => [d.name, d]));

  const lookup = (name: string, from: Declaration): Declaration | undefined =>
    from.file === source.file
      ? (localByName.get(name) ?? kitByName.get(name))
      : kitByName.get(name);

  const isOptionalRef = (from: Declaration) => (name: string) => {
    const d = lookup(name, from);
    return d !== undefined && d !== from && OPTIONAL.test(d.text);
  };

  const cache = new Map<Declaration, EnvKeys>();
  const resolve = (decl: Declaration, visiting: Set<Declaration>): EnvKeys => {
    const hit = cache.get(decl);
    if (hit) return hit;
    visiting.add(decl);
    const result: EnvKeys = new Map();
    for (const m of decl.text.matchAll(IDENTIFIER)) {
      const ref = lookup(m[0], decl);
      if (!ref || ref === decl || visiting.has(ref)) continue;
      for (const [k, v] of resolve(ref, visiting)) result.set(k, v);
    }
    const own = ownKeys(decl, isOptionalRef(decl));
    for (const [k, required] of own.keys)
      result.set(k, { required, declaredIn: `${decl.file}#${decl.name}` });
    for (const k of own.removed) result.delete(k);
    visiting.delete(decl);
    cache.set(decl, result);
    return result;
  };

  // Roots: the file's declarations that no other declaration of the file uses.
  const used = new Set<Declaration>();
  for (const d of local) {
    for (const m of d.text.matchAll(IDENTIFIER)) {
      const ref = localByName.get(m[0]);
      if (ref && ref !== d) used.add(ref);
    }
  }
  const roots = local.filter((d) => !used.has(d));
  const keys: EnvKeys = new Map();
  for (const root of roots.length > 0 ? roots : local) {
    for (const [k, v] of resolve(root, new Set())) {
      const prev = keys.get(k);
      // Two roots disagree: keep the stricter reading.
      if (!prev || (v.required && !prev.required)) keys.set(k, v);
    }
  }
  return keys;
}
