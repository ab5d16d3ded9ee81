import {
  adminOf,
  buildPrompt,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(30_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 90_000);
afterAll(() => h?.stop(), 60_000);

/** Creates a prompt in `workspaceId` as `as` (an admin of it by default); its answer. */
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
  return res.body;
}

async function list(workspaceId: number, as: Caller = userOf(workspaceId), query = '') {
  const res = await h.call('GET', `/api/prompts?workspaceId=${workspaceId}${query}`, { as });
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, unknown>>;
}

/** The listed prompts that belong to the workspace (public ones of other tests left out). */
async function own(workspaceId: number, as: Caller = adminOf(workspaceId)) {
  return (await list(workspaceId, as)).filter((p) => p.workspaceId === workspaceId);
}

describe('creating a prompt', () => {
  it('when an admin creates a text prompt, then it answers 201 with the full prompt and its variables', async () => {
    const ws = newWorkspaceId();
    const admin = adminOf(ws);

    const res = await h.call('POST', '/api/prompts', {
      as: admin,
      body: {
        name: '  Product copy  ',
        template: 'Describe {product} for {audience} in {language}. Use {{braces}}.',
        category: 'Technical',
        contentType: 'text',
        model: 'gpt-3.5-turbo',
        workspaceId: ws,
      },
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Product copy',
      template: 'Describe {product} for {audience} in {language}. Use {{braces}}.',
      variables: ['product', 'audience', 'language'],
      category: 'Technical',
      contentType: 'text',
      model: 'gpt-3.5-turbo',
      isPublic: false,
      isDefault: false,
      workspaceId: ws,
      userId: admin!.uid,
      referenceImageUrls: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const detail = await h.call('GET', `/api/prompts/${res.body.id}?workspaceId=${ws}`, {
      as: admin,
    });
    expect(detail.body).toEqual(res.body);
  });

  it('when a prompt is created, then prompt.created is published with its snapshot', async () => {
    const ws = newWorkspaceId();

    const created = await createPrompt(ws, { isPublic: true }, superAdmin());

    const event = await h.waitForEvent(
      (e) =>
        e.type === 'prompt.created' && (e.data as { promptId: string }).promptId === created.id,
    );
    expect(event.data).toEqual({
      promptId: created.id,
      workspaceId: ws,
      userId: created.userId,
      name: created.name,
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
      isPublic: true,
      isDefault: false,
    });
  });

  it.each([
    ['name', 'Name is required'],
    ['template', 'Template is required'],
    ['category', 'Category is required'],
    ['model', 'Model is required'],
    ['contentType', 'Content type is required'],
  ])('when %s is missing, then 400 says "%s" and nothing is written', async (field, message) => {
    const ws = newWorkspaceId();
    const body = buildPrompt({ workspaceId: ws });
    delete body[field];

    const res = await h.call('POST', '/api/prompts', { as: adminOf(ws), body });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION.FAILED', message });
    expect(await own(ws)).toEqual([]);
  });

  it.each([
    ['the name is blank', { name: '   ' }, 'Name is required'],
    ['the template is blank', { template: ' ' }, 'Template is required'],
    ['the name is too long', { name: 'n'.repeat(201) }, 'Name must be at most 200 characters'],
    [
      'the description is too long',
      { description: 'd'.repeat(2001) },
      'Description must be at most 2000 characters',
    ],
    [
      'the template is too long',
      { template: 't'.repeat(20_001) },
      'Template must be at most 20000 characters',
    ],
    [
      'the category is unknown',
      { category: 'Sales' },
      'Category must be one of: Marketing, Technical, Creative, Business',
    ],
    [
      'the content type is unknown',
      { contentType: 'video' },
      'Content type must be one of: text, image',
    ],
    [
      'an image model is chosen for a text prompt',
      { model: 'dall-e-3' },
      'Model must be one of gpt-4o, gpt-4-turbo, gpt-3.5-turbo for text prompts',
    ],
    [
      'a text model is chosen for an image prompt',
      { contentType: 'image', model: 'gpt-4o' },
      'Model must be one of dall-e-3, gpt-image-1 for image prompts',
    ],
    [
      'the model is not offered at all',
      { model: 'gpt-5' },
      'Model must be one of gpt-4o, gpt-4-turbo, gpt-3.5-turbo for text prompts',
    ],
    [
      'the template has an unclosed brace',
      { template: 'Hello {name' },
      "Unclosed '{' at character 7. Write '{{' for a literal brace.",
    ],
    [
      'the template has a lone closing brace',
      { template: 'Hello name}' },
      "Unmatched '}' at character 11. Write '}}' for a literal brace.",
    ],
    [
      'the template has an empty variable',
      { template: 'Hi {}' },
      "Empty variable '{}' at character 4.",
    ],
    [
      'the template has more variables than a generation takes',
      { template: Array.from({ length: 51 }, (_, i) => `{v${i}}`).join(' ') },
      'A template can have at most 50 variables',
    ],
    ['isPublic is not a boolean', { isPublic: 'yes' }, expect.stringMatching(/boolean/)],
  ])(
    'when %s, then 400 with a clear message and nothing is written',
    async (_case, overrides, message) => {
      const ws = newWorkspaceId();

      const res = await h.call('POST', '/api/prompts', {
        as: adminOf(ws),
        body: buildPrompt({ workspaceId: ws, ...overrides }),
      });

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION.FAILED', message });
      expect(await own(ws)).toEqual([]);
    },
  );

  it('when no workspace is named anywhere, then 400 says the workspace is required', async () => {
    const res = await h.call('POST', '/api/prompts', {
      as: superAdmin(),
      body: buildPrompt(),
    });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Workspace id is required' });
  });

  it('when the workspace comes only from X-Workspace-ID, then the prompt is created there', async () => {
    const ws = newWorkspaceId();

    const res = await h.call('POST', '/api/prompts', {
      as: adminOf(ws),
      body: buildPrompt(),
      headers: { 'x-workspace-id': String(ws) },
    });

    expect(res.status).toBe(201);
    expect(res.body.workspaceId).toBe(ws);
  });

  it('when a plain user creates a prompt, then 403 with the SPEC text', async () => {
    const ws = newWorkspaceId();

    const res = await h.call('POST', '/api/prompts', {
      as: userOf(ws),
      body: buildPrompt({ workspaceId: ws }),
    });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: 'Only administrators can create new prompts.' });
  });

  it('when the body names a workspace the caller does not belong to, then 404 and nothing is written', async () => {
    const mine = newWorkspaceId();
    const theirs = newWorkspaceId();

    const res = await h.call('POST', '/api/prompts', {
      as: adminOf(mine),
      body: buildPrompt({ workspaceId: theirs }),
    });

    expect(res.status).toBe(404);
    expect(await own(theirs)).toEqual([]);
  });

  it('when the workspace is full, then 409 names the limit', async () => {
    const small = await startHarness({ MAX_PROMPTS_PER_WORKSPACE: '2' });
    try {
      const ws = newWorkspaceId();
      const as = adminOf(ws);
      for (let i = 0; i < 2; i++) {
        const ok = await small.call('POST', '/api/prompts', {
          as,
          body: buildPrompt({ workspaceId: ws }),
        });
        expect(ok.status).toBe(201);
      }

      const res = await small.call('POST', '/api/prompts', {
        as,
        body: buildPrompt({ workspaceId: ws }),
      });

      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'PROMPT.LIMIT_REACHED',
        message: 'A workspace can hold at most 2 prompts.',
      });
    } finally {
      await small.stop();
    }
  });
});

describe('which prompts a caller sees', () => {
  it("when a workspace's prompts are listed, then its own and the public ones come, newest first, never another workspace's private ones", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const first = await createPrompt(ws, { name: 'first' });
    const shared = await createPrompt(other, { name: 'shared', isPublic: true }, superAdmin());
    const hidden = await createPrompt(other, { name: 'hidden' });
    const last = await createPrompt(ws, { name: 'last', contentType: 'image', model: 'dall-e-3' });

    const ids = (await list(ws)).map((p) => p.id);

    expect(ids).toEqual(expect.arrayContaining([first.id, shared.id, last.id]));
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(last.id)).toBeLessThan(ids.indexOf(shared.id));
    expect(ids.indexOf(shared.id)).toBeLessThan(ids.indexOf(first.id));
  });

  it('when the list is filtered by content type, then only that type comes', async () => {
    const ws = newWorkspaceId();
    const text = await createPrompt(ws);
    const image = await createPrompt(ws, { contentType: 'image', model: 'dall-e-3' });

    const images = await list(ws, userOf(ws), '&contentType=image');
    const texts = await list(ws, userOf(ws), '&contentType=text');

    expect(images.map((p) => p.id)).toContain(image.id);
    expect(images.every((p) => p.contentType === 'image')).toBe(true);
    expect(texts.map((p) => p.id)).toContain(text.id);
    expect(texts.map((p) => p.id)).not.toContain(image.id);
  });

  it("when another workspace's private prompt is asked for by id, then 404 Prompt Not Found", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const hidden = await createPrompt(other);

    for (const as of [userOf(ws), adminOf(ws)]) {
      const res = await h.call('GET', `/api/prompts/${hidden.id}?workspaceId=${ws}`, { as });

      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'PROMPT.NOT_FOUND', message: 'Prompt Not Found' });
    }
  });

  it('when a member of two workspaces asks for a prompt of one while viewing the other, then 404', async () => {
    const a = newWorkspaceId();
    const b = newWorkspaceId();
    const inA = await createPrompt(a);
    const both = member({ [a]: 'admin', [b]: 'admin' }, { ws: b });

    const viewingB = await h.call('GET', `/api/prompts/${inA.id}?workspaceId=${b}`, { as: both });
    const viewingA = await h.call('GET', `/api/prompts/${inA.id}?workspaceId=${a}`, { as: both });

    expect(viewingB.status).toBe(404);
    expect(viewingA.status).toBe(200);
  });

  it('when a public prompt of another workspace is asked for by id, then it is shown', async () => {
    const ws = newWorkspaceId();
    const shared = await createPrompt(newWorkspaceId(), { isPublic: true }, superAdmin());

    const res = await h.call('GET', `/api/prompts/${shared.id}?workspaceId=${ws}`, {
      as: userOf(ws),
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: shared.id, isPublic: true });
  });

  it('when the caller names a workspace they do not belong to, then 404 and no prompts', async () => {
    const ws = newWorkspaceId();
    await createPrompt(ws);

    const res = await h.call('GET', `/api/prompts?workspaceId=${ws}`, {
      as: adminOf(newWorkspaceId()),
    });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'WORKSPACE.NOT_FOUND' });
  });

  it('when X-Workspace-ID names a workspace the caller does not belong to, then 404 even with a good query', async () => {
    const ws = newWorkspaceId();

    const res = await h.call('GET', `/api/prompts?workspaceId=${ws}`, {
      as: userOf(ws),
      headers: { 'x-workspace-id': String(newWorkspaceId()) },
    });

    expect(res.status).toBe(404);
  });

  it('when the list has no workspace id, then 400 says so', async () => {
    const res = await h.call('GET', '/api/prompts', { as: superAdmin() });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Workspace id must be an integer of at least 1');
  });
});

describe('what a non-admin sees of a prompt', () => {
  it('when a plain user lists or opens prompts, then name, description, category, type, model, flags and variables come, never the template', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws, { template: 'Secret recipe for {dish}' });
    const user = userOf(ws);

    const [listed] = (await list(ws, user)).filter((p) => p.id === created.id);
    const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: user,
    });

    for (const view of [listed, detail.body]) {
      expect(view).not.toHaveProperty('template');
      expect(view).not.toHaveProperty('referenceImageUrls');
      expect(view).toMatchObject({
        name: created.name,
        description: 'Writes product copy',
        category: 'Marketing',
        contentType: 'text',
        model: 'gpt-4o',
        isPublic: false,
        isDefault: false,
        variables: ['dish'],
      });
    }
    expect(JSON.stringify([listed, detail.body])).not.toContain('Secret recipe');
  });

  it('when an admin opens a prompt, then the template comes; the list stays summaries for everyone', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);
    const admin = adminOf(ws);

    const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: admin,
    });
    const [listed] = (await list(ws, admin)).filter((p) => p.id === created.id);

    expect(detail.body.template).toBe(created.template);
    expect(listed).not.toHaveProperty('template');
  });

  it('when an admin of the workspace in view opens a public prompt of another workspace, then the template comes', async () => {
    const ws = newWorkspaceId();
    const shared = await createPrompt(newWorkspaceId(), { isPublic: true }, superAdmin());

    const asAdmin = await h.call('GET', `/api/prompts/${shared.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });
    const asUser = await h.call('GET', `/api/prompts/${shared.id}?workspaceId=${ws}`, {
      as: userOf(ws),
    });

    expect(asAdmin.body.template).toBe(shared.template);
    expect(asUser.body).not.toHaveProperty('template');
  });
});

describe('editing a prompt', () => {
  it('when an admin edits any prompt of the workspace, then it is saved, listed and announced', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws, {}, adminOf(ws));

    const res = await h.call('PUT', `/api/prompts/${created.id}`, {
      as: adminOf(ws),
      body: {
        name: 'Renamed',
        template: 'Now about {topic}',
        category: 'Creative',
        description: '',
        workspaceId: ws,
      },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      name: 'Renamed',
      template: 'Now about {topic}',
      variables: ['topic'],
      category: 'Creative',
    });
    expect(res.body).not.toHaveProperty('description');
    expect(res.body.updatedAt >= created.updatedAt).toBe(true);
    const [listed] = (await list(ws)).filter((p) => p.id === created.id);
    expect(listed).toMatchObject({ name: 'Renamed', variables: ['topic'], category: 'Creative' });
    await h.waitForEvent(
      (e) =>
        e.type === 'prompt.updated' &&
        (e.data as { promptId: string; name: string }).promptId === created.id &&
        (e.data as { name: string }).name === 'Renamed',
    );
  });

  it('when the owner, now a plain user, edits their prompt, then it is saved and the answer has no template', async () => {
    const ws = newWorkspaceId();
    const owner = adminOf(ws);
    const created = await createPrompt(ws, {}, owner);
    const demoted = { ...owner, roles: { [ws]: 'user' as const }, role: null };

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: demoted,
      body: { name: 'Mine still' },
    });

    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Mine still');
    expect(res.body).not.toHaveProperty('template');
  });

  it("when a plain user edits someone else's prompt, then 403 and nothing changes", async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: userOf(ws),
      body: { name: 'Hijacked' },
    });

    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      "Only administrators and the prompt's owner can edit this prompt.",
    );
    const [listed] = (await list(ws)).filter((p) => p.id === created.id);
    expect(listed!.name).toBe(created.name);
  });

  it('when the owner who is not an admin sets the default flag, then 403; sending it unchanged is fine', async () => {
    const ws = newWorkspaceId();
    const owner = adminOf(ws);
    const created = await createPrompt(ws, {}, owner);
    const demoted = { ...owner, roles: { [ws]: 'user' as const }, role: null };

    const setting = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: demoted,
      body: { isDefault: true },
    });
    const unchanged = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: demoted,
      body: { name: 'Same flag', isDefault: false },
    });

    expect(setting.status).toBe(403);
    expect(setting.body.message).toBe('Only administrators can set the default prompt.');
    expect(unchanged.status).toBe(200);
  });

  it('when an admin edits a public prompt of another workspace, then 403 (they see it, it is not theirs)', async () => {
    const ws = newWorkspaceId();
    const shared = await createPrompt(newWorkspaceId(), { isPublic: true }, superAdmin());

    const res = await h.call('PUT', `/api/prompts/${shared.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { name: 'Taken over' },
    });

    expect(res.status).toBe(403);
  });

  it.each([
    [
      'a model alone that does not fit the stored content type',
      { model: 'dall-e-3' },
      'Model must be one of gpt-4o, gpt-4-turbo, gpt-3.5-turbo for text prompts',
    ],
    [
      'a content type alone that the stored model does not fit',
      { contentType: 'image' },
      'Model must be one of dall-e-3, gpt-image-1 for image prompts',
    ],
    ['a blank name', { name: ' ' }, 'Name is required'],
    [
      'a malformed template',
      { template: '{a{b}}' },
      "Unexpected '{' inside a variable at character 3. Write '{{' for a literal brace.",
    ],
    [
      'reference image URLs of another prompt',
      { referenceImageUrls: ['/api/prompts/someone-else/reference-images/img1'] },
      "referenceImageUrls must hold this prompt's reference image URLs",
    ],
  ])('when an update sends %s, then 400 with a clear message', async (_case, body, message) => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body,
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('when a content type and a fitting model are switched together, then it is saved', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { contentType: 'image', model: 'gpt-image-1' },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: 'image', model: 'gpt-image-1' });
  });

  it('when a prompt that does not exist is edited, then 404', async () => {
    const ws = newWorkspaceId();

    const res = await h.call('PUT', `/api/prompts/does-not-exist?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { name: 'x' },
    });

    expect(res.status).toBe(404);
  });
});

describe('deleting a prompt', () => {
  it('when its creator, now a plain user, deletes it, then 204, it is gone from detail and list, and prompt.deleted is published', async () => {
    const ws = newWorkspaceId();
    const creator = adminOf(ws);
    const created = await createPrompt(ws, {}, creator);
    const demoted = { ...creator, roles: { [ws]: 'user' as const }, role: null };

    const res = await h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: demoted,
    });

    expect(res.status).toBe(204);
    const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: creator,
    });
    expect(detail.status).toBe(404);
    expect((await list(ws)).map((p) => p.id)).not.toContain(created.id);
    expect((await list(newWorkspaceId(), superAdmin())).map((p) => p.id)).not.toContain(created.id);
    const event = await h.waitForEvent(
      (e) =>
        e.type === 'prompt.deleted' && (e.data as { promptId: string }).promptId === created.id,
    );
    expect(event.data).toEqual({ promptId: created.id, workspaceId: ws });
  });

  it('when an admin deletes any prompt of the workspace, then 204', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);

    const res = await h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });

    expect(res.status).toBe(204);
  });

  it("when a plain user deletes someone else's prompt, then 403 and it stays", async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);

    const res = await h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, {
      as: userOf(ws),
    });

    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      "Only administrators and the prompt's creator can delete this prompt.",
    );
    expect((await list(ws)).map((p) => p.id)).toContain(created.id);
  });

  it('when edits and a delete of one prompt race, then it ends deleted, listed nowhere', async () => {
    const ws = newWorkspaceId();
    const as = superAdmin();
    const created = await createPrompt(ws, { isPublic: true }, as);

    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) =>
        h.call('PUT', `/api/prompts/${created.id}?workspaceId=${ws}`, {
          as,
          body: { name: `edit ${i}` },
        }),
      ),
      h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, { as }),
    ]);

    expect(answers.at(-1)!.status).toBe(204);
    expect(answers.slice(0, 5).every((a) => [200, 404].includes(a.status))).toBe(true);
    const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${ws}`, { as });
    expect(detail.status).toBe(404);
    expect((await list(ws)).map((p) => p.id)).not.toContain(created.id);
  });

  it('when a prompt is deleted twice, then the second answer is 404', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);
    const as = adminOf(ws);

    await h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, { as });
    const again = await h.call('DELETE', `/api/prompts/${created.id}?workspaceId=${ws}`, { as });

    expect(again.status).toBe(404);
  });
});
