import { createQueryClient } from './query-client';
import { queryKeys, queryTimings, urlFilter, withParams } from './queries';

describe('query keys and timings', () => {
  it('when the query client is created, then it carries the SPEC §9 defaults', () => {
    const defaults = createQueryClient().getDefaultOptions().queries!;
    expect(defaults).toMatchObject({
      staleTime: 60_000,
      gcTime: 300_000,
      refetchInterval: false,
      refetchOnWindowFocus: true,
      refetchOnMount: true,
      retry: false,
    });
    expect(typeof defaults.queryFn).toBe('function');
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });

  it('when the prompt list timings are read, then they poll every 15 s and go stale after 10 s', () => {
    expect(queryTimings.prompts).toEqual({ staleTime: 10_000, refetchInterval: 15_000 });
  });

  it('when keys are built, then their first element is the URL to GET', () => {
    expect(queryKeys.user()).toEqual(['/api/user']);
    expect(queryKeys.prompts(2, 'image')).toEqual(['/api/prompts?workspaceId=2&contentType=image']);
    expect(queryKeys.prompts(2)).toEqual(['/api/prompts?workspaceId=2']);
    expect(queryKeys.apiKeySetting(4)).toEqual(['/api/workspaces/4/settings/openai_api_key']);
    expect(queryKeys.apiKeySetting(null)).toEqual(['/api/settings/openai_api_key']);
    expect(queryKeys.content('a/b')).toEqual(['/api/contents/a%2Fb']);
    expect(withParams('/api/contents', { workspaceId: undefined })).toBe('/api/contents');
  });

  it('when a URL filter is applied, then it matches the path, its queries and sub-paths only', () => {
    const { predicate } = urlFilter('/api/prompts');
    const matches = (url: string) => predicate({ queryKey: [url] });
    expect(matches('/api/prompts')).toBe(true);
    expect(matches('/api/prompts?workspaceId=1')).toBe(true);
    expect(matches('/api/prompts/p1?workspaceId=1')).toBe(true);
    expect(matches('/api/prompts-archive')).toBe(false);
    expect(matches('/api/contents')).toBe(false);
  });
});
