import { randomUUID } from 'node:crypto';
import { PUBLIC_SUMMARY, workspaceSummary } from '../data/prompt-summary.model';
import { imagesOf } from '../domain/view-prompt';
import {
  adminOf,
  buildImagePrompt,
  buildPrompt,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  waitFor,
  type Caller,
  type Harness,
} from '../test-support/harness';
import { pngImage, referenceForm } from '../test-support/images';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function createPrompt(
  workspaceId: number,
  overrides: Record<string, unknown> = {},
  as: Caller = adminOf(workspaceId),
) {
  const res = await h.call('POST', '/api/prompts', {
    as,
    body: buildPrompt({ workspaceId, ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** A workspace with a default prompt, a public one and an image prompt with a reference image. */
async function populatedWorkspace() {
  const ws = newWorkspaceId();
  const plain = await createPrompt(ws, { isDefault: true });
  const shared = await createPrompt(ws, { isPublic: true }, superAdmin());
  const withImage = await createPrompt(ws, buildImagePrompt());
  const uploaded = await h.call('POST', `/api/prompts/${withImage.id}/reference-image`, {
    as: adminOf(ws),
    form: referenceForm(await pngImage()),
    headers: { 'x-workspace-id': String(ws) },
  });
  expect(uploaded.status).toBe(200);
  const [image] = await imagesOf(h.domain, withImage.id);
  return {
    ws,
    ids: [plain.id, shared.id, withImage.id],
    sharedId: shared.id,
    imageKey: image!.key,
  };
}

const publish = (workspaceId: number, id: string = randomUUID()) =>
  h.workspaceBus.publish('workspace.deleted', { workspaceId }, { id });

/** Waits until the service has handled the event (its idempotency record is done). */
const handled = (eventId: string) =>
  waitFor(
    async () =>
      (await h.db.collection('processed_events').findOne({ _id: eventId } as never))?.status ===
      'done',
    `event ${eventId} handled`,
  );

const promptDocs = (workspaceId: number) =>
  h.db.collection('prompts').countDocuments({ workspaceId });

describe('workspace.deleted', () => {
  it("when a workspace is deleted, then its prompts, default, summaries, public entries and images go, and each prompt's deletion is announced", async () => {
    const { ws, ids, sharedId, imageKey } = await populatedWorkspace();
    const elsewhere = newWorkspaceId();
    const survivor = await createPrompt(elsewhere);

    const event = await publish(ws);

    await handled(event.id);
    await waitFor(async () => (await promptDocs(ws)) === 0, 'the tombstones to go');
    for (const id of ids) {
      const res = await h.call('GET', `/api/prompts/${id}`, { as: superAdmin() });
      expect(res.status).toBe(404);
      await h.waitForEvent(
        (e) => e.type === 'prompt.deleted' && (e.data as { promptId: string }).promptId === id,
      );
    }
    const listedElsewhere = await h.call('GET', `/api/prompts?workspaceId=${elsewhere}`, {
      as: userOf(elsewhere),
    });
    const listedIds = (listedElsewhere.body as Array<{ id: string }>).map((p) => p.id);
    expect(listedIds).toContain(survivor.id);
    expect(listedIds).not.toContain(sharedId);
    expect(await h.service.deps.storage!.stat(imageKey)).toBeNull();
    expect(await h.service.deps.storage!.list(`workspaces/${ws}/`)).toEqual([]);
    const summary = await h.domain.summaries.latest(workspaceSummary(ws));
    expect(summary?.value).toEqual({ entries: [], closed: true });
    // Only the closed version stays (the earlier ones go once the close is written).
    await waitFor(
      async () =>
        (await h.db
          .collection('prompt_summaries')
          .countDocuments({ chain: workspaceSummary(ws) })) === 1,
      'the summary chain to keep its closed version only',
    );
    const latestPublic = await h.domain.summaries.latest(PUBLIC_SUMMARY);
    expect(latestPublic?.value.entries.some((e) => e.workspaceId === ws)).toBe(false);
    expect(await h.domain.defaults.latest(`default:${ws}`)).toBeNull();
    await h.waitForEvent(
      (e) =>
        e.type === 'prompt.default-changed' &&
        (e.data as { workspaceId: number; promptId: string | null }).workspaceId === ws &&
        (e.data as { promptId: string | null }).promptId === null,
    );
    expect(await h.db.collection('prompt_images').countDocuments({ workspaceId: ws })).toBe(0);
  });

  it('when the same event arrives twice, or a second deletion of the workspace arrives, then nothing more happens and other workspaces keep their prompts', async () => {
    const { ws } = await populatedWorkspace();
    const elsewhere = newWorkspaceId();
    const survivor = await createPrompt(elsewhere, { isDefault: true });
    const eventId = randomUUID();

    await publish(ws, eventId);
    await handled(eventId);
    await waitFor(async () => (await promptDocs(ws)) === 0, 'the tombstones to go');
    const deletedEvents = () =>
      h.events.filter(
        (e) =>
          e.type === 'prompt.deleted' && (e.data as { workspaceId: number }).workspaceId === ws,
      ).length;
    const announced = await waitFor(() => (deletedEvents() === 3 ? 3 : 0), 'three prompt.deleted');
    await publish(ws, eventId);
    const second = await publish(ws);
    await handled(second.id);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(deletedEvents()).toBe(announced);
    expect(await promptDocs(ws)).toBe(0);
    const survivorNow = await h.call(
      'GET',
      `/api/prompts/${survivor.id}?workspaceId=${elsewhere}`,
      {
        as: userOf(elsewhere),
      },
    );
    expect(survivorNow.body).toMatchObject({ id: survivor.id, isDefault: true });
  });
});
