import { z } from 'zod';
import {
  CATEGORIES,
  CONTENT_TYPES,
  FIELD_LIMITS,
  IMAGE_MODELS,
  ROLES,
  TEXT_MODELS,
  THEMES,
} from './constants';

// Building blocks shared by the entity and http schemas.

/** A non-blank string, trimmed; `requiredMessage` for missing, non-string or blank input. */
export function requiredText(label: string, max: number, requiredMessage = `${label} is required`) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .max(max, `${label} must be at most ${max} characters`);
}

/** An optional string, trimmed. */
export function optionalText(label: string, max: number) {
  return z.string().trim().max(max, `${label} must be at most ${max} characters`).optional();
}

/**
 * An integer in [min, max], given as a number (JSON) or a string of digits (path, query,
 * header, multipart field). Input type `number | string`, output `number`.
 */
export function integer(label: string, min: number, max: number = Number.MAX_SAFE_INTEGER) {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `${label} must be an integer of at least ${min}`
      : `${label} must be an integer from ${min} to ${max}`;
  return z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: message })
    .pipe(z.number().int({ error: message }).min(min, message).max(max, message));
}

/** A member of a fixed list; `requiredMessage` when missing or empty, a list otherwise. */
function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  label: string,
  requiredMessage = `${label} is required`,
) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? requiredMessage
        : `${label} must be one of: ${values.join(', ')}`,
  });
}

export const IsoDateTime = z.iso.datetime({ offset: true });

export const ContentType = oneOf(CONTENT_TYPES, 'Content type');
export type ContentType = z.infer<typeof ContentType>;

export const Role = oneOf(ROLES, 'Role');
export type Role = z.infer<typeof Role>;

export const Category = oneOf(CATEGORIES, 'Category');
export type Category = z.infer<typeof Category>;

export const TextModel = oneOf(TEXT_MODELS, 'Model');
export type TextModel = z.infer<typeof TextModel>;

export const ImageModel = oneOf(IMAGE_MODELS, 'Model');
export type ImageModel = z.infer<typeof ImageModel>;

export const Theme = oneOf(THEMES, 'Theme');
export type Theme = z.infer<typeof Theme>;

/** An output language as the user names it ('nl', 'en', 'Dutch', …). */
export const Language = requiredText('Language', FIELD_LIMITS.language);

/** A URL the gateway serves (absolute or rooted at '/'). */
export const ResourceUrl = z.string().min(1).max(FIELD_LIMITS.url);
