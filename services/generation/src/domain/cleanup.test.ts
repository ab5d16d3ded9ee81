import { randomUUID } from 'node:crypto';
import { sweepOrphanObjects } from '@aict/service-kit';
import { attachmentModel } from '../data/attachment.model';
import { createAttachmentRepository } from '../data/attachment.repository';
import { generationModel } from '../data/generation.model';
import { createGenerationRepository } from '../data/generation.repository';
import { formWith, PNG } from '../test-support/fixtures';
import { startHarness, type Harness, type Workspace } from '../test-support/harness';
import { isObjectReferenced } from './cleanup';
import type { DomainDeps } from './domain-deps';

let t: Harness;
let ws: Workspace;
beforeAll(async () => {
  t = await startHarness();
  ws = await t.newWorkspace();
}, 90_000);
afterAll(() => t?.stop(), 60_000);

describe('the orphan sweep of generated images and chat attachments', () => {
  it('when objects exist that no record points to, then a sweep removes them and keeps the attachments that are recorded', async () => {
    const uploaded = await t.call('POST', '/api/uploads/chat-attachments', {
      as: ws.user,
      headers: { 'x-workspace-id': String(ws.id) },
      form: formWith([{ name: 'kept.png', bytes: PNG, type: 'image/png' }]),
    });
    expect(uploaded.status).toBe(201);
    const kept = uploaded.body.files[0];
    const { storage, mongo, logger } = t.generation.deps;
    // What an outage between the object and its record leaves behind.
    const orphans = [
      `workspaces/${ws.id}/images/${randomUUID()}`,
      `workspaces/${ws.id}/attachments/${ws.user.uid}/${randomUUID()}`,
    ];
    for (const key of orphans) await storage!.put(key, PNG, { contentType: 'image/png' });
    const d = {
      generations: createGenerationRepository(generationModel(mongo!)),
      attachments: createAttachmentRepository(attachmentModel(mongo!)),
    } as unknown as DomainDeps;

    const result = await sweepOrphanObjects({
      store: storage!,
      logger,
      prefix: `workspaces/${ws.id}/`,
      isReferenced: (key) => isObjectReferenced(d, key),
      graceMs: 60_000,
      batch: 100,
      now: () => Date.now() + 3_600_000,
    });

    expect(result.removed.sort()).toEqual([...orphans].sort());
    expect(await storage!.list(`workspaces/${ws.id}/`)).toHaveLength(1);
    const read = await t.call('GET', kept.url, { as: ws.user });
    expect(read.status).toBe(200);
  });
});
