/**
 * Node's fetch rejects with errors made in Node's own realm. Under jest (whose test code runs
 * in a separate vm realm) those are not `instanceof Error`, and the openai SDK then classifies a
 * timeout as a plain APIConnectionError instead of APIConnectionTimeoutError. Passing this as
 * the SDK's `fetch` option re-creates such errors in the caller's realm (name, message, cause
 * kept); outside jest it changes nothing.
 *
 *   new OpenAI({ apiKey, baseURL: sim.url, fetch: realmSafeFetch })
 */
export const realmSafeFetch: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    throw toLocalError(error);
  }
};

function toLocalError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error;
  const foreign = error as { name?: unknown; message?: unknown; cause?: unknown; stack?: unknown };
  const local = new Error(String(foreign.message ?? ''), { cause: foreign.cause });
  if (typeof foreign.name === 'string') local.name = foreign.name;
  if (typeof foreign.stack === 'string') local.stack = foreign.stack;
  return local;
}
