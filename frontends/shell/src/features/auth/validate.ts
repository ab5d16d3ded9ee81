import type { LoginBody, RegisterBody } from '@aict/contracts';
import { localizeValidationMessage } from '@aict/web-kit';

// Client-side checks with the schemas the server applies (SPEC §5 messages). The schemas (and
// zod, ~34 KB gzip) load on first use, not with the page: @aict/contracts is a shared module
// that is not tree-shaken, and the login page must not wait for it. The page prefetches them
// as soon as a field gets focus.

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export type Validation<T> = { data: T; errors: null } | { data: null; errors: FieldErrors<T> };

interface Schema<T> {
  safeParse(input: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> };
      };
}

const loadContracts = () => import('@aict/contracts');

/** Starts loading the schemas in the background. */
export function prefetchValidation(): void {
  void loadContracts().catch(() => undefined); // a failure shows on submit
}

function check<T>(schema: Schema<T>, input: unknown): Validation<T> {
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data, errors: null };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    // The first problem of each field, in the interface's language.
    errors[field] ??= localizeValidationMessage(issue.message);
  }
  return { data: null, errors: errors as FieldErrors<T> };
}

export async function validateLogin(input: unknown): Promise<Validation<LoginBody>> {
  const { LoginBody } = await loadContracts();
  return check<LoginBody>(LoginBody, input);
}

export async function validateRegister(input: unknown): Promise<Validation<RegisterBody>> {
  const { RegisterBody } = await loadContracts();
  return check<RegisterBody>(RegisterBody, input);
}
