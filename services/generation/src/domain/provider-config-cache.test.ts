import type { ProviderConfig } from '@aict/contracts';
import { createProviderConfigCache } from './provider-config-cache';

const config = (apiKey: string): ProviderConfig => ({
  apiKey,
  keySource: 'workspace',
  baseUrl: 'http://127.0.0.1:1/v1',
  baseUrlSource: 'environment',
  defaultTextModel: 'gpt-4o',
  defaultImageModel: 'dall-e-3',
});

describe('provider config cache', () => {
  it('when a burst of generations asks at once, then the workspace service is asked once', async () => {
    const cache = createProviderConfigCache(5_000);
    const load = jest.fn(() => Promise.resolve(config('sk-a')));
    const answers = await Promise.all(Array.from({ length: 200 }, () => cache.get(3, load)));
    expect(load).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map((a) => a.apiKey))).toEqual(new Set(['sk-a']));
  });

  it('when the settings change, then the next generation reads the new key', async () => {
    const cache = createProviderConfigCache(60_000);
    await cache.get(3, () => Promise.resolve(config('sk-old')));
    cache.clear();
    expect((await cache.get(3, () => Promise.resolve(config('sk-new')))).apiKey).toBe('sk-new');
  });

  it('when the time to live has passed, then it asks again; workspaces are kept apart', async () => {
    let t = 0;
    const cache = createProviderConfigCache(1_000, { now: () => t });
    await cache.get(3, () => Promise.resolve(config('sk-3')));
    expect((await cache.get(4, () => Promise.resolve(config('sk-4')))).apiKey).toBe('sk-4');
    t = 1_500;
    expect((await cache.get(3, () => Promise.resolve(config('sk-3b')))).apiKey).toBe('sk-3b');
  });

  it('when loading fails, then the failure is not kept', async () => {
    const cache = createProviderConfigCache(60_000);
    await expect(cache.get(3, () => Promise.reject(new Error('timeout')))).rejects.toThrow();
    expect((await cache.get(3, () => Promise.resolve(config('sk-a')))).apiKey).toBe('sk-a');
  });

  it('when the settings change while a load is under way, then its answer is not kept', async () => {
    const cache = createProviderConfigCache(60_000);
    let resolve!: (value: ProviderConfig) => void;
    const pending = cache.get(3, () => new Promise((r) => (resolve = r)));
    cache.clear();
    resolve(config('sk-old'));
    await pending;
    await new Promise((r) => setImmediate(r));
    expect((await cache.get(3, () => Promise.resolve(config('sk-new')))).apiKey).toBe('sk-new');
  });
});
