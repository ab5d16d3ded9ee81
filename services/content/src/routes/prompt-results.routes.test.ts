import { createEvent, PromptResultsResponse, type GeneratedContent } from '@aict/contracts';
import { recordOf } from '../data/layout';
import { applyStored } from '../domain/derived';
import { repairPending } from '../domain/repair';
import { createdData } from '../domain/store-content';
import { startPromptService, type PromptService } from '../test-support/prompt-service';
import {
  adminOf,
  buildContent,
  buildImage,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  waitFor,
  type Caller,
  type Harness,
  pendingLeftBehind,
} from '../test-support/harness';

// GET /api/prompts/:id/results (issue 18): the template results the content service keeps per
// prompt as contents are stored, reviewed and deleted; who may see them is the real prompt
// service's decision (request/reply `prompt.for-results`).

jest.setTimeout(90_000);

let h: Harness;
let prompts: PromptService;

beforeAll(async () => {
  h = await startHarness({ REPAIR_INTERVAL_MS: '600000' });
  prompts = await startPromptService(h.vhostUrl);
});
afterAll(async () => {
  await prompts?.stop();
  await h?.stop();
});

async function createPrompt(ws: number, as: Caller = adminOf(ws), extra = {}): Promise<string> {
  const res = await prompts.call('POST', '/api/prompts', as, {
    workspaceId: ws,
    name: `Prompt ${Math.random()}`,
    template: 'Write about {topic}',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    ...extra,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function editPrompt(ws: number, id: string, template: string): Promise<void> {
  const res = await prompts.call('PUT', `/api/prompts/${id}?workspaceId=${ws}`, adminOf(ws), {
    template,
  });
  expect(res.status).toBe(200);
}

/** Runs of a prompt version as the generation service hands them over. */
function run(
  ws: number,
  promptId: string,
  promptVersion: number | undefined,
  author: Caller,
  overrides: Partial<GeneratedContent> = {},
): GeneratedContent {
  return buildContent({
    workspaceId: ws,
    userId: author!.uid!,
    promptId,
    ...(promptVersion ? { promptVersion } : {}),
    ...overrides,
  });
}

const results = async (ws: number, promptId: string, as: Caller = adminOf(ws)) => {
  const res = await h.call('GET', `/api/prompts/${promptId}/results?workspaceId=${ws}`, { as });
  return {
    status: res.status,
    body: res.body,
    parsed: () => PromptResultsResponse.parse(res.body),
  };
};

const review = (ws: number, id: string, as: Caller, action: string, comment?: string) =>
  h.call('POST', `/api/contents/${id}/review?workspaceId=${ws}`, {
    as,
    body: comment === undefined ? { action } : { action, comment },
  });

async function approve(ws: number, id: string, author: Caller) {
  expect((await review(ws, id, author, 'submit')).status).toBe(200);
  expect((await review(ws, id, adminOf(ws), 'approve')).status).toBe(200);
}

describe('template results', () => {
  it('when contents come from two versions by two users, then the runs are counted per version and per user (replies and contents without a version are not), with their cost', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);
    const ann = userOf(ws);
    const bob = userOf(ws);
    const v1 = [
      run(ws, promptId, 1, ann, { costMicros: 100 }),
      run(ws, promptId, 1, ann, { costMicros: 200 }),
      run(ws, promptId, 1, bob),
    ];
    for (const c of v1) await h.store(c);
    await editPrompt(ws, promptId, 'Write briefly about {topic}');
    const v2 = run(ws, promptId, 2, ann, { costMicros: 50 });
    await h.store(v2);
    await h.store(buildImage({ workspaceId: ws, userId: bob!.uid!, promptId, promptVersion: 2 }));
    // Not runs of the template: a reply in a conversation, and a content of before versions.
    await h.store(run(ws, promptId, 1, ann, { parentId: v1[0]!.id, threadId: v1[0]!.id }));
    await h.store(run(ws, promptId, undefined, bob));

    const res = await results(ws, promptId);

    expect(res.status).toBe(200);
    expect(res.parsed()).toEqual({
      promptId,
      workspaceId: ws,
      currentVersion: 2,
      currency: 'USD',
      versions: [
        {
          version: 2,
          runs: 2,
          approved: 0,
          approvedShare: 0,
          costMicros: 50,
          costPerApprovedMicros: null,
        },
        {
          version: 1,
          runs: 3,
          approved: 0,
          approvedShare: 0,
          costMicros: 300,
          costPerApprovedMicros: null,
        },
      ],
      users: [
        { userId: ann!.uid, runs: 3, approved: 0 },
        { userId: bob!.uid, runs: 2, approved: 0 },
      ],
    });
    // The content records its version.
    const item = await h.call('GET', `/api/contents/${v2.id}?workspaceId=${ws}`, { as: ann });
    expect(item.body.promptVersion).toBe(2);
    const listed = await h.call('GET', `/api/contents?workspaceId=${ws}`, { as: ann });
    const inList = (listed.body.items as Array<{ id: string; promptVersion?: number }>).find(
      (i) => i.id === v1[0]!.id,
    );
    expect(inList?.promptVersion).toBe(1);
  });

  it('when a prompt has no runs yet, then its current version is listed with nothing counted', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);

    const res = await results(ws, promptId);

    expect(res.status).toBe(200);
    expect(res.parsed().versions).toEqual([
      {
        version: 1,
        runs: 0,
        approved: 0,
        approvedShare: 0,
        costMicros: null,
        costPerApprovedMicros: null,
      },
    ]);
    expect(res.parsed().users).toEqual([]);
  });

  it('when runs are approved, sent back and deleted, then the share approved and the cost per approved item follow', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);
    const ann = userOf(ws);
    const items = [1, 2, 3, 4].map(() => run(ws, promptId, 1, ann, { costMicros: 300 }));
    for (const c of items) await h.store(c);

    await approve(ws, items[0]!.id, ann);
    const one = (await results(ws, promptId)).parsed();
    expect(one.versions[0]).toMatchObject({
      runs: 4,
      approved: 1,
      approvedShare: 0.25,
      costMicros: 1200,
      costPerApprovedMicros: 1200,
    });

    await approve(ws, items[1]!.id, ann);
    expect((await review(ws, items[2]!.id, ann, 'submit')).status).toBe(200);
    expect((await review(ws, items[2]!.id, adminOf(ws), 'request-changes', 'No')).status).toBe(200);
    const two = (await results(ws, promptId)).parsed();
    expect(two.versions[0]).toMatchObject({
      runs: 4,
      approved: 2,
      approvedShare: 0.5,
      costPerApprovedMicros: 600,
    });
    expect(two.users).toEqual([{ userId: ann!.uid, runs: 4, approved: 2 }]);

    // A deleted content is taken out (run and approval); what it cost stays spent.
    const removed = await h.call('DELETE', `/api/contents/${items[0]!.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });
    expect(removed.status).toBe(204);
    const after = (await results(ws, promptId)).parsed();
    expect(after.versions[0]).toMatchObject({
      runs: 3,
      approved: 1,
      approvedShare: 1 / 3,
      costMicros: 1200,
      costPerApprovedMicros: 1200,
    });
    expect(after.users).toEqual([{ userId: ann!.uid, runs: 3, approved: 1 }]);
  });

  it('when a generation is delivered again (the queue, another content.store, a repair), then it counts once', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);
    const ann = userOf(ws);
    const c = run(ws, promptId, 1, ann, { costMicros: 70 });

    await h.store(c);
    await h.generationBus.publish('generation.completed', c);
    await h.generationBus.publish('generation.completed', c);
    await h.store(c);
    // The repair replays the derived writes of a stored record.
    const record = await h.domain.contents.findById(c.id);
    await applyStored(h.domain, record ?? recordOf(c));
    await approve(ws, c.id, ann);
    // Both queued copies consumed: a request sent after them is answered after them.
    await waitFor(async () => {
      const q = await h.generationBus.request('content.store', c);
      return (q as { stored: boolean }).stored === false;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const res = (await results(ws, promptId)).parsed();
    expect(res.versions).toEqual([
      {
        version: 1,
        runs: 1,
        approved: 1,
        approvedShare: 1,
        costMicros: 70,
        costPerApprovedMicros: 70,
      },
    ]);
    expect(res.users).toEqual([{ userId: ann!.uid, runs: 1, approved: 1 }]);
  });

  it('when the process stopped after the record and before its derived writes, then the repair counts the run, once', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);
    const c = run(ws, promptId, 1, userOf(ws), { costMicros: 40 });
    const event = createEvent('content.created', createdData(c), { correlationId: 'crash-test' });
    await h.db.collection('pending').insertOne(pendingLeftBehind(c, event) as never);
    await h.db.collection('contents').insertOne(recordOf(c) as never);
    expect((await results(ws, promptId)).parsed().versions[0]?.runs).toBe(0);

    await repairPending(h.domain, 0);
    await repairPending(h.domain, 0);

    expect((await results(ws, promptId)).parsed().versions[0]).toMatchObject({
      version: 1,
      runs: 1,
      costMicros: 40,
    });
  });

  it("when anyone but an admin of the prompt's workspace or a super admin asks, then it is refused as the versions are", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const promptId = await createPrompt(ws);
    const published = await createPrompt(ws, superAdmin(), { isPublic: true });
    await h.store(run(ws, promptId, 1, userOf(ws)));

    const otherAdmin = await results(other, promptId, adminOf(other));
    const otherAdminHere = await h.call(
      'GET',
      `/api/prompts/${promptId}/results?workspaceId=${ws}`,
      { as: adminOf(other) },
    );
    const otherAdminPublished = await results(other, published, adminOf(other));
    const memberHere = await results(ws, promptId, userOf(ws));
    const adminOfBoth = await results(other, promptId, member({ [other]: 'admin', [ws]: 'user' }));
    const sa = await results(ws, promptId, superAdmin());
    const saWithout = await h.call('GET', `/api/prompts/${promptId}/results`, { as: superAdmin() });

    expect(otherAdmin.status).toBe(404);
    expect(otherAdmin.body.code).toBe('PROMPT.NOT_FOUND');
    expect(otherAdminHere.status).toBe(404);
    expect(otherAdminPublished.status).toBe(403);
    expect(memberHere.status).toBe(403);
    expect(adminOfBoth.status).toBe(404);
    expect(sa.status).toBe(200);
    expect(sa.parsed().versions[0]).toMatchObject({ version: 1, runs: 1 });
    expect(saWithout.status).toBe(200);
    expect(saWithout.body.workspaceId).toBe(ws);
  });

  it('when the workspace is deleted, then its results go with its contents', async () => {
    const ws = newWorkspaceId();
    const promptId = await createPrompt(ws);
    await h.store(run(ws, promptId, 1, userOf(ws)));
    expect(await h.domain.promptResults.find(ws, promptId)).not.toBeNull();

    await h.workspaceBus.publish('workspace.deleted', { workspaceId: ws });

    await waitFor(
      async () => (await h.domain.promptResults.find(ws, promptId)) === null,
      'the results removed',
    );
  });
});
