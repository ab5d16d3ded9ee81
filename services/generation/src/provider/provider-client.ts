import OpenAI, { toFile } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { GenerationUsage, ProviderConfig } from '@aict/contracts';
import {
  createProviderFetch,
  LruCache,
  metrics,
  type Logger,
  type ProviderFetch,
} from '@aict/service-kit';
import type { Config } from '../config';
import {
  ABORT,
  codeError,
  isRetryable,
  retryAfterMs,
  retryDelayMs,
  toProviderError,
  TruncatedError,
} from './provider-errors';

export type ChatMessageParam = ChatCompletionMessageParam;

export interface ChatResult {
  text: string;
  usage: GenerationUsage;
  /** The caller's signal stopped it (the client went away). */
  stopped: boolean;
}

export interface ImageResult {
  bytes: Buffer;
  /** Base64 as the provider sent it (gpt-image-1). */
  b64: string | null;
  usage: GenerationUsage;
}

export interface ReferenceImage {
  bytes: Buffer;
  mimeType: string;
  name: string;
}

type Keyed = ProviderConfig & { apiKey: string };

export interface ProviderClient {
  streamChat(options: {
    config: Keyed;
    model: string;
    messages: ChatMessageParam[];
    signal?: AbortSignal;
    onDelta?: (text: string) => void;
  }): Promise<ChatResult>;
  generateImage(options: {
    config: Keyed;
    model: string;
    prompt: string;
    signal?: AbortSignal;
  }): Promise<ImageResult>;
  editImage(options: {
    config: Keyed;
    model: string;
    prompt: string;
    images: ReferenceImage[];
    signal?: AbortSignal;
  }): Promise<ImageResult>;
  close(): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The error code a provider failure carries (for the errors-by-kind metric). */
const errorCode = (err: unknown): string =>
  typeof (err as { code?: unknown })?.code === 'string'
    ? (err as { code: string }).code
    : 'INTERNAL';

/** SDK clients kept (one per provider key and address in use). */
const MAX_CLIENTS = 100;

const zeroUsage = (): GenerationUsage => ({ promptTokens: 0, completionTokens: 0, images: 0 });

/**
 * The AI provider through the official SDK, with our own retry (Retry-After honoured, bounded,
 * backoff), deadlines (per call and between streamed chunks) and one error per failure. The
 * key is used here only: it is never logged, published or answered.
 */
export function createProviderClient(config: Readonly<Config>, logger: Logger): ProviderClient {
  // The operator's OPENAI_BASE_URL goes anywhere; a product-entered one through the guard.
  const trusted = createProviderFetch({ allowedOrigins: 'any' });
  const guarded = createProviderFetch({ allowedOrigins: config.PROVIDER_URL_ALLOWED_ORIGINS });
  const fetchFor = (provider: ProviderConfig): ProviderFetch =>
    provider.baseUrlSource === 'environment' ? trusted : guarded;

  /**
   * One SDK client per key, address and trust, reused by every call with them (a client made
   * per call cost about 0.6 ms before its request left). Bounded: the least recently used goes
   * first, so a rotated key's client goes once it is no longer used.
   */
  const clients = new LruCache<string, OpenAI>(MAX_CLIENTS);
  const sdk = (provider: Keyed) => {
    const key = `${provider.baseUrlSource}\u0000${provider.baseUrl}\u0000${provider.apiKey}`;
    let client = clients.get(key);
    if (!client) {
      client = new OpenAI({
        apiKey: provider.apiKey,
        baseURL: provider.baseUrl,
        organization: null,
        project: null,
        timeout: config.PROVIDER_TIMEOUT_MS,
        maxRetries: 0,
        logLevel: 'off',
        fetch: fetchFor(provider).fetch,
      });
      clients.set(key, client);
    }
    return client;
  };

  /**
   * A deadline for one whole call (retries and the stream included): past it the call is
   * aborted as a timeout, which closes its socket. Call `clear()` when the call is over.
   */
  function callDeadline(signal?: AbortSignal) {
    const controller = new AbortController();
    const onClientGone = () => controller.abort(ABORT.client);
    if (signal?.aborted) onClientGone();
    signal?.addEventListener('abort', onClientGone, { once: true });
    const endsAt = Date.now() + config.PROVIDER_DEADLINE_MS;
    const timer = setTimeout(() => controller.abort(ABORT.timeout), config.PROVIDER_DEADLINE_MS);
    return {
      controller,
      endsAt,
      clear() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onClientGone);
      },
    };
  }

  /** Runs `attempt` until it succeeds, fails for good, or the retries are used up. */
  async function withRetries<T>(
    what: string,
    attempt: () => Promise<T>,
    signal: AbortSignal,
    endsAt: number,
  ) {
    for (let retry = 0; ; retry += 1) {
      try {
        return await attempt();
      } catch (err) {
        if (!isRetryable(err) || retry >= config.PROVIDER_MAX_RETRIES || signal.aborted) throw err;
        const asked = retryAfterMs(err as InstanceType<typeof OpenAI.APIError>);
        if (asked !== null && asked > config.PROVIDER_MAX_RETRY_WAIT_MS) throw err;
        const wait = retryDelayMs(retry, asked);
        // A retry that could only start after the deadline is not worth the wait.
        if (Date.now() + wait >= endsAt) throw err;
        logger.warn(
          {
            what,
            retry: retry + 1,
            waitMs: Math.round(wait),
            status: (err as InstanceType<typeof OpenAI.APIError>).status,
          },
          'provider call failed; retrying',
        );
        await sleep(wait, signal);
      }
    }
  }

  async function downloadImage(provider: ProviderConfig, url: string): Promise<Buffer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(ABORT.timeout), config.PROVIDER_TIMEOUT_MS);
    try {
      const res = await fetchFor(provider).fetch(url, { signal: controller.signal });
      if (!res.ok || !res.body) throw codeError('PROVIDER.UNAVAILABLE');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > config.IMAGE_MAX_BYTES) {
          controller.abort();
          throw codeError(
            'PROVIDER.UNAVAILABLE',
            'The AI provider sent an image that is too large',
          );
        }
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    } catch (err) {
      throw toProviderError(err, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async function imageResult(
    provider: ProviderConfig,
    response: OpenAI.Images.ImagesResponse,
  ): Promise<ImageResult> {
    const first = response.data?.[0];
    const usage = {
      promptTokens: response.usage?.input_tokens ?? 0,
      completionTokens: response.usage?.output_tokens ?? 0,
      images: 1,
    };
    if (first?.b64_json) {
      const bytes = Buffer.from(first.b64_json, 'base64');
      if (bytes.length > config.IMAGE_MAX_BYTES) throw codeError('PROVIDER.UNAVAILABLE');
      return { bytes, b64: first.b64_json, usage };
    }
    // dall-e answers a signed URL that expires: fetch the image at once.
    if (first?.url) return { bytes: await downloadImage(provider, first.url), b64: null, usage };
    throw codeError('PROVIDER.UNAVAILABLE', 'The AI provider answered without an image');
  }

  return {
    async streamChat({ config: provider, model, messages, signal, onDelta }) {
      const client = sdk(provider);
      const deadline = callDeadline(signal);
      const { controller } = deadline;
      let idle: NodeJS.Timeout | undefined;
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(ABORT.timeout), config.PROVIDER_TIMEOUT_MS);
      };
      let text = '';
      const usage = zeroUsage();
      let finished = false;
      const call = metrics.providerCall({ model, kind: 'chat' });
      try {
        const stream = await withRetries(
          'chat',
          () =>
            client.chat.completions.create(
              { model, messages, stream: true, stream_options: { include_usage: true } },
              { signal: controller.signal },
            ),
          controller.signal,
          deadline.endsAt,
        );
        armIdle();
        try {
          for await (const chunk of stream) {
            armIdle();
            const choice = chunk.choices[0];
            const piece = choice?.delta?.content;
            if (piece) {
              call.firstToken();
              text += piece;
              onDelta?.(piece);
            }
            if (choice?.finish_reason) finished = true;
            if (chunk.usage) {
              usage.promptTokens = chunk.usage.prompt_tokens;
              usage.completionTokens = chunk.usage.completion_tokens;
            }
          }
        } catch (err) {
          if (controller.signal.aborted) throw err;
          throw new TruncatedError();
        }
        if (!finished) throw new TruncatedError();
        call.succeeded();
        return { text, usage, stopped: false };
      } catch (err) {
        if (controller.signal.reason === ABORT.client) {
          call.failed('STOPPED');
          return { text, usage, stopped: true };
        }
        const failure = toProviderError(err, controller.signal);
        call.failed(errorCode(failure));
        throw failure;
      } finally {
        clearTimeout(idle);
        deadline.clear();
      }
    },

    async generateImage({ config: provider, model, prompt, signal }) {
      const client = sdk(provider);
      const call = metrics.providerCall({ model, kind: 'image' });
      const { controller, endsAt, clear } = callDeadline(signal);
      try {
        const response = await withRetries(
          'image',
          () =>
            client.images.generate(
              {
                model,
                prompt,
                n: 1,
                size: '1024x1024',
                ...(model === 'dall-e-3' ? { response_format: 'url' as const } : {}),
              },
              { signal: controller.signal },
            ),
          controller.signal,
          endsAt,
        );
        const result = await imageResult(provider, response);
        call.succeeded();
        return result;
      } catch (err) {
        const failure = toProviderError(err, controller.signal);
        call.failed(errorCode(failure));
        throw failure;
      } finally {
        clear();
      }
    },

    async editImage({ config: provider, model, prompt, images, signal }) {
      const client = sdk(provider);
      const call = metrics.providerCall({ model, kind: 'image' });
      const { controller, endsAt, clear } = callDeadline(signal);
      try {
        const files = await Promise.all(
          images.map((image) => toFile(image.bytes, image.name, { type: image.mimeType })),
        );
        const response = await withRetries(
          'image-edit',
          () =>
            client.images.edit(
              { model, prompt, n: 1, image: files.length === 1 ? files[0]! : files },
              { signal: controller.signal },
            ),
          controller.signal,
          endsAt,
        );
        const result = await imageResult(provider, response);
        call.succeeded();
        return result;
      } catch (err) {
        if (!(err instanceof OpenAI.APIError)) logger.warn({ err }, 'image edit failed');
        const failure = toProviderError(err, controller.signal);
        call.failed(errorCode(failure));
        throw failure;
      } finally {
        clear();
      }
    },

    async close() {
      clients.clear();
      await Promise.all([trusted.close(), guarded.close()]);
    },
  };
}
