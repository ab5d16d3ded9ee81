import { z } from 'zod';
import { IsoDateTime } from '../primitives';
import { WorkspaceParams, type RouteDef } from './route';

/** Limits of the brand voice (our choice). */
export const BRAND_VOICE_LIMITS = {
  tone: 500,
  /** Entries in each word list. */
  words: 50,
  /** Characters of one word (or short phrase) in a list. */
  word: 60,
  example: 2000,
} as const;

const wordList = (label: string) =>
  z
    .array(
      z
        .string({ error: `${label} must be words` })
        .trim()
        .min(1, `${label} cannot hold an empty entry`)
        .max(
          BRAND_VOICE_LIMITS.word,
          `Each entry of ${label.toLowerCase()} must be at most ${BRAND_VOICE_LIMITS.word} characters`,
        ),
    )
    .max(BRAND_VOICE_LIMITS.words, `${label} can hold at most ${BRAND_VOICE_LIMITS.words} entries`)
    .default([])
    // Same word twice (any case) kept once.
    .transform((words) =>
      words.filter((w, i) => words.findIndex((o) => o.toLowerCase() === w.toLowerCase()) === i),
    );

/**
 * A workspace's brand voice: guidance its admins write, sent with every text generation and
 * chat of the workspace as a system instruction (brandVoiceInstruction). All fields empty:
 * no brand voice.
 */
export const BrandVoiceBody = z.object({
  tone: z
    .string()
    .trim()
    .max(BRAND_VOICE_LIMITS.tone, `Tone must be at most ${BRAND_VOICE_LIMITS.tone} characters`)
    .default(''),
  avoidWords: wordList('Words to avoid'),
  useWords: wordList('Words to use'),
  example: z
    .string()
    .trim()
    .max(
      BRAND_VOICE_LIMITS.example,
      `Example must be at most ${BRAND_VOICE_LIMITS.example} characters`,
    )
    .default(''),
});
export type BrandVoiceBody = z.input<typeof BrandVoiceBody>;

export const BrandVoice = z.object({
  tone: z.string(),
  avoidWords: z.array(z.string()),
  useWords: z.array(z.string()),
  example: z.string(),
});
export type BrandVoice = z.infer<typeof BrandVoice>;

export const BrandVoiceResponse = BrandVoice.extend({
  workspaceId: z.number().int().positive(),
  /** null: never written. */
  updatedAt: IsoDateTime.nullable(),
});
export type BrandVoiceResponse = z.infer<typeof BrandVoiceResponse>;

export function isEmptyBrandVoice(voice: BrandVoice | null | undefined): boolean {
  return (
    !voice ||
    (!voice.tone && !voice.example && voice.avoidWords.length === 0 && voice.useWords.length === 0)
  );
}

/**
 * The system instruction a brand voice becomes (null when empty). One definition: the
 * generation service sends it, the admin prompt page shows it.
 */
export function brandVoiceInstruction(voice: BrandVoice | null | undefined): string | null {
  if (!voice || isEmptyBrandVoice(voice)) return null;
  const lines = ['Write in the brand voice of this workspace.'];
  if (voice.tone) lines.push(`Tone: ${voice.tone}`);
  if (voice.useWords.length > 0) lines.push(`Words to use: ${voice.useWords.join(', ')}`);
  if (voice.avoidWords.length > 0)
    lines.push(`Never use these words: ${voice.avoidWords.join(', ')}`);
  if (voice.example) lines.push(`Example of the voice:\n${voice.example}`);
  return lines.join('\n');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The words to avoid that `text` contains, as written in the brand voice: whole words (or
 * phrases), any case. A word inside another word does not count ("ai" is not in "said").
 */
export function voiceFlagsOf(text: string, voice: BrandVoice | null | undefined): string[] {
  if (!voice || !text) return [];
  return voice.avoidWords.filter((word) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'iu').test(text),
  );
}

export const BRAND_VOICE_ROUTES = {
  /** Any member reads it (their generations use it). */
  get: {
    method: 'GET',
    path: '/api/workspaces/:id/brand-voice',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'member',
    params: WorkspaceParams,
    response: BrandVoiceResponse,
  },
  /** Replaces it; all fields empty clears it. Workspace admins and super admins. */
  put: {
    method: 'PUT',
    path: '/api/workspaces/:id/brand-voice',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'workspace-admin',
    params: WorkspaceParams,
    body: BrandVoiceBody,
    response: BrandVoiceResponse,
  },
} as const satisfies Record<string, RouteDef>;
