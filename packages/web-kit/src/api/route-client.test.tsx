import { screen, waitFor } from '@testing-library/react';
import { CONTENT_ROUTES, PROMPT_ROUTES, type PromptsResponse } from '@aict/contracts';
import { answer, renderWithClient, stubApi } from '../test';
import { ApiError } from './http';
import { getPrompts, usePrompts } from './prompt-queries';
import { queryKeys } from './queries';
import { apiCall, fillPath, routeQueryKey, routeRef, routeUrl } from './route-client';
import { contentRoutes, promptRoutes } from './routes';

// The typed client over the contracts' route tables: what goes on the wire, what comes back,
// and (with @ts-expect-error, checked by `tsc`) what the types refuse.

const summary = {
  id: 'p1',
  name: 'Summarise',
  category: 'Marketing',
  contentType: 'text',
  model: 'gpt-4o-mini',
  isPublic: false,
  isDefault: false,
  variables: [],
} as unknown as PromptsResponse[number];

beforeEach(() => localStorage.clear());

describe('apiCall', () => {
  it('when a route has params and a body, then they fill the path and go as JSON', async () => {
    const calls = stubApi({
      'PUT /api/prompts/p%2F1': () => answer(200, { id: 'p/1', name: 'Renamed' }),
    });

    const updated = await apiCall(PROMPT_ROUTES.update, {
      params: { id: 'p/1' },
      body: { name: 'Renamed' },
    });

    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/prompts/p%2F1',
      headers: { 'Content-Type': 'application/json' },
      body: { name: 'Renamed' },
    });
    expect(updated.name).toBe('Renamed');
  });

  it('when a route has a query, then its defined values form the query string', async () => {
    const calls = stubApi({ 'GET /api/prompts?workspaceId=3': () => answer(200, [summary]) });

    const prompts = await apiCall(promptRoutes.list, {
      query: { workspaceId: 3, contentType: undefined },
    });

    expect(calls.map((call) => call.url)).toEqual(['/api/prompts?workspaceId=3']);
    expect(prompts).toEqual([summary]);
  });

  it('when a route answers 204, then the call gives null', async () => {
    stubApi({ 'DELETE /api/contents/c1': () => answer(204) });
    await expect(apiCall(CONTENT_ROUTES.remove, { params: { id: 'c1' } })).resolves.toBeNull();
  });

  it('when the answer is not OK, then the call throws the ApiError', async () => {
    stubApi({ 'GET /api/contents/c1': () => answer(404, { message: 'Content not found' }) });
    const call = apiCall(contentRoutes.get, { params: { id: 'c1' } });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ status: 404 });
  });

  it('when the types are wrong, then tsc refuses the call', () => {
    // Never run: tsc checks these lines (a missing @ts-expect-error error fails the build).
    const unchecked = () => {
      // @ts-expect-error the list needs its query (workspaceId)
      void apiCall(promptRoutes.list);
      // @ts-expect-error a path parameter the route does not have
      void apiCall(contentRoutes.get, { params: { slug: 'x' } });
      // @ts-expect-error a body field the update does not take
      void apiCall(PROMPT_ROUTES.update, { params: { id: 'p1' }, body: { title: 'x' } });
      // @ts-expect-error the answer is a prompt list, not a string
      void apiCall(promptRoutes.list, { query: { workspaceId: 1 } }).then((r): string => r);
      // @ts-expect-error a route web-kit names must match the table: the list is GET
      routeRef<typeof PROMPT_ROUTES.list>('POST', '/api/prompts');
      // @ts-expect-error …and its path
      routeRef<typeof PROMPT_ROUTES.list>('GET', '/api/prompt');
    };
    expect(typeof unchecked).toBe('function');
  });
});

describe('route URLs and query keys', () => {
  it('when a key is built from a route, then it is the URL the default query function GETs', () => {
    expect(routeQueryKey(PROMPT_ROUTES.get, { id: 'p1' }, { workspaceId: 2 })).toEqual([
      '/api/prompts/p1?workspaceId=2',
    ]);
    expect(
      routeQueryKey(promptRoutes.list, undefined, { workspaceId: 2, contentType: 'image' }),
    ).toEqual(queryKeys.prompts(2, 'image'));
    expect(queryKeys.prompts(2, 'image')).toEqual(['/api/prompts?workspaceId=2&contentType=image']);
    expect(queryKeys.stats(5)).toEqual(['/api/stats?workspaceId=5']);
    expect(queryKeys.contents(null)).toEqual(['/api/contents']);
    expect(routeUrl(contentRoutes.conversation, { id: 'c 1' })).toBe(
      '/api/contents/c%201/conversation',
    );
  });

  it('when a path parameter is missing, then building the URL throws', () => {
    expect(() => fillPath('/api/prompts/:id/reference-image/:index', { id: 'p1' })).toThrow(
      "Missing path parameter 'index' for /api/prompts/:id/reference-image/:index",
    );
  });
});

describe('the prompt list (one fetcher for the generation and admin remotes)', () => {
  it('when the list loads, then it GETs the workspace and content type and returns the summaries', async () => {
    const calls = stubApi({
      'GET /api/prompts?workspaceId=7&contentType=text': () => answer(200, [summary]),
    });
    await expect(getPrompts(7, 'text')).resolves.toEqual([summary]);
    expect(calls).toHaveLength(1);
  });

  it("when the answer is not OK, then it throws 'Failed to fetch prompts' with the ApiError as cause", async () => {
    stubApi({ 'GET /api/prompts?workspaceId=7': () => answer(500, 'boom') });
    const error: unknown = await getPrompts(7).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'Failed to fetch prompts' });
    expect((error as Error).cause).toBeInstanceOf(ApiError);
  });

  function PromptNames({ workspaceId }: { workspaceId: number | null }) {
    const prompts = usePrompts(workspaceId, 'text');
    if (prompts.isError) return <p role="alert">{prompts.error.message}</p>;
    return <p>{prompts.data?.map((p) => p.name).join(', ') ?? 'idle'}</p>;
  }

  it('when a workspace is selected, then the hook shows its prompts', async () => {
    stubApi({ 'GET /api/prompts?workspaceId=7&contentType=text': () => answer(200, [summary]) });
    renderWithClient(<PromptNames workspaceId={7} />);
    expect(await screen.findByText('Summarise')).toBeTruthy();
  });

  it('when no workspace is selected, then the hook sends nothing', async () => {
    const calls = stubApi({});
    renderWithClient(<PromptNames workspaceId={null} />);
    await waitFor(() => expect(screen.getByText('idle')).toBeTruthy());
    expect(calls).toHaveLength(0);
  });
});
