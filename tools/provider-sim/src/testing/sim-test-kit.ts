import OpenAI, { type ClientOptions } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { renderPng } from '../lib/image-bytes';
import type { ProviderSim } from '../sim-server';

/** Builders for the simulator's own tests (not part of the package's exports). */

export const TEST_KEY = 'sk-test-provider-sim';

export function buildClient(sim: ProviderSim, overrides: Partial<ClientOptions> = {}): OpenAI {
  return new OpenAI({ apiKey: TEST_KEY, baseURL: sim.url, maxRetries: 0, ...overrides });
}

export function buildPng(seed = 'reference', size = 16): Buffer {
  return renderPng(seed, size);
}

export function pngDataUrl(seed = 'reference', size = 16): string {
  return `data:image/png;base64,${buildPng(seed, size).toString('base64')}`;
}

export function userMessage(text: string, imageUrls: string[] = []): ChatCompletionMessageParam {
  if (imageUrls.length === 0) return { role: 'user', content: text };
  return {
    role: 'user',
    content: [
      { type: 'text', text },
      ...imageUrls.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
    ],
  };
}

export interface CollectedStream {
  text: string;
  chunks: ChatCompletionChunk[];
  finishReason: string | null;
}

export async function collectStream(
  stream: AsyncIterable<ChatCompletionChunk>,
): Promise<CollectedStream> {
  const chunks: ChatCompletionChunk[] = [];
  let text = '';
  let finishReason: string | null = null;
  for await (const chunk of stream) {
    chunks.push(chunk);
    text += chunk.choices[0]?.delta.content ?? '';
    finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
  }
  return { text, chunks, finishReason };
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
