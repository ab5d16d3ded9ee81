import { ErrorCode, GPT_IMAGE_MODEL } from '@aict/contracts';
import { stack } from '../support/browser';
import { makePng } from '../support/png';
import {
  allContents,
  chatWorkspace,
  createMember,
  signIn,
  signedOut,
  type ApiAnswer,
  type ApiClient,
} from '../support/api';
import { superAdmin, uniqueName } from '../support/session';

// Who may use each route of the generation and content services, through the gateway: a
// signed-out visitor, the author of the contents (a plain user of workspace A), another plain
// user of A, an admin of A, an admin of workspace B (naming A, then naming his own B while
// asking for A's things) and the super administrator. Each cell of the matrix is one test.

jest.setTimeout(120_000);

const ACTORS = [
  'signed out',
  'the author (plain user of A)',
  'another plain user of A',
  'an admin of A',
  'an admin of B naming A',
  'an admin of B naming B',
  'the super administrator',
] as const;
type Actor = (typeof ACTORS)[number];

interface Fixtures {
  a: { workspaceId: number; promptId: string; imagePromptId: string };
  b: { workspaceId: number; promptId: string };
  clients: Record<Actor, ApiClient>;
  /** The workspace each actor names (header, query or body). */
  names: Record<Actor, number>;
  author: ApiClient;
  /** A unique word in the author's text content. */
  word: string;
  textId: string;
  imageId: string;
  attachmentId: string;
}

interface Cell {
  status: number;
  /** What else the actor would notice, given the answer. */
  then?: (answer: ApiAnswer, f: Fixtures, prepared: string) => Promise<void> | void;
}

interface RouteCase {
  route: string;
  /** Runs before the call (a fresh content to delete); its result goes to `call`. */
  prepare?: (f: Fixtures) => Promise<string>;
  call: (client: ApiClient, ws: number, f: Fixtures, prepared: string) => Promise<ApiAnswer>;
  cells: Record<Actor, Cell>;
}

const refusedSignedOut: Cell = {
  status: 401,
  then: (answer) => expect(answer.body).toMatchObject({ code: ErrorCode.AUTH_UNAUTHENTICATED }),
};
const refusedByGateway: Cell = {
  status: 403,
  then: (answer) => expect(answer.body).toMatchObject({ code: ErrorCode.WORKSPACE_FORBIDDEN }),
};
const notFound = (code: ErrorCode): Cell => ({
  status: 404,
  then: (answer) => expect(answer.body).toMatchObject({ code }),
});

/** A generation answered 200 whose content the author can then read in A. */
const generated: Cell = {
  status: 200,
  then: async (answer, f) => {
    const id = (answer.body as { content: { id: string } }).content.id;
    const read = await f.author.call('GET', `/api/contents/${id}`, {
      workspaceId: f.a.workspaceId,
    });
    expect(read.status).toBe(200);
  },
};

function contentIds(answer: ApiAnswer): string[] {
  return (answer.body as { items: Array<{ id: string }> }).items.map((item) => item.id);
}

const listsTheText: Cell = {
  status: 200,
  then: (answer, f) => expect(contentIds(answer)).toContain(f.textId),
};
const listsNothingOfA: Cell = {
  status: 200,
  then: (answer, f) => expect(contentIds(answer)).not.toContain(f.textId),
};

async function stillThere(f: Fixtures, id: string): Promise<boolean> {
  const answer = await f.author.call('GET', `/api/contents/${id}`, {
    workspaceId: f.a.workspaceId,
  });
  if (answer.status !== 200 && answer.status !== 404)
    throw new Error(`GET content: ${answer.status} ${answer.text}`);
  return answer.status === 200;
}

/** Gone from the history and from its own address. */
const deleted: Cell = {
  status: 204,
  then: async (_answer, f, id) => {
    const ids = (await allContents(f.author, f.a.workspaceId)).map((item) => item.id);
    expect(ids).not.toContain(id);
    expect(await stillThere(f, id)).toBe(false);
  },
};
/** Refused as `base` says, and the content is still there. */
const kept = (base: Cell): Cell => ({
  status: base.status,
  then: async (answer, f, id) => {
    await base.then?.(answer, f, id);
    expect(await stillThere(f, id)).toBe(true);
  },
});

function pngBlob(size: number): Blob {
  return new Blob([new Uint8Array(makePng(size, size))], { type: 'image/png' });
}

/** POST /api/generate-with-image's form: a gpt-image-1 prompt of A and a reference PNG. */
function imageForm(promptId: string, ws: number): FormData {
  const form = new FormData();
  form.set('promptId', promptId);
  form.set('model', GPT_IMAGE_MODEL);
  form.set('inputs[subject]', 'a lighthouse');
  form.set('workspaceId', String(ws));
  form.set('file', pngBlob(16), 'reference.png');
  return form;
}

function attachmentForm(): FormData {
  const form = new FormData();
  form.append('files', pngBlob(8), 'photo.png');
  return form;
}

async function generateText(
  client: ApiClient,
  workspaceId: number,
  promptId: string,
  message: string,
) {
  return client.ok<{ content: { id: string } }>('POST', '/api/generate', {
    body: { promptId, inputs: { message }, language: 'nl', workspaceId },
    workspaceId,
  });
}

const ROUTES: RouteCase[] = [
  {
    route: 'POST /api/generate',
    call: (client, ws, f) =>
      client.call('POST', '/api/generate', {
        body: {
          promptId: f.a.promptId,
          inputs: { message: `matrix ${uniqueName()}` },
          language: 'nl',
          workspaceId: ws,
        },
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': generated,
      'another plain user of A': generated,
      'an admin of A': generated,
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.PROMPT_NOT_FOUND),
      'the super administrator': generated,
    },
  },
  {
    route: "POST /api/generate-reply (to the author's content)",
    call: (client, ws, f) =>
      client.call('POST', '/api/generate-reply', {
        body: {
          message: `reply ${uniqueName()}`,
          conversationHistory: [],
          parentContentId: f.textId,
          workspaceId: ws,
        },
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': generated,
      'another plain user of A': generated,
      'an admin of A': generated,
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.CONTENT_NOT_FOUND),
      'the super administrator': generated,
    },
  },
  {
    route: 'POST /api/generate-with-image',
    call: (client, ws, f) =>
      client.call('POST', '/api/generate-with-image', {
        form: imageForm(f.a.imagePromptId, ws),
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': generated,
      'another plain user of A': generated,
      'an admin of A': generated,
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.PROMPT_NOT_FOUND),
      'the super administrator': generated,
    },
  },
  {
    route: 'POST /api/uploads/chat-attachments',
    call: (client, ws) =>
      client.call('POST', '/api/uploads/chat-attachments', {
        form: attachmentForm(),
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': { status: 201 },
      'another plain user of A': { status: 201 },
      'an admin of A': { status: 201 },
      'an admin of B naming A': refusedByGateway,
      // his own workspace: nothing of A is involved
      'an admin of B naming B': { status: 201 },
      'the super administrator': { status: 201 },
    },
  },
  {
    route: "GET /api/uploads/chat-attachments/:id (the author's file)",
    call: (client, ws, f) =>
      client.call('GET', `/api/uploads/chat-attachments/${f.attachmentId}?workspaceId=${ws}`, {
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': {
        status: 200,
        then: (answer) => expect(answer.headers.get('content-type')).toMatch(/^image\/png/),
      },
      // a chat attachment is served to its owner only
      'another plain user of A': notFound(ErrorCode.FILE_NOT_FOUND),
      'an admin of A': notFound(ErrorCode.FILE_NOT_FOUND),
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.FILE_NOT_FOUND),
      'the super administrator': notFound(ErrorCode.FILE_NOT_FOUND),
    },
  },
  {
    route: "GET /api/images/:id (the author's image)",
    call: (client, ws, f) =>
      client.call('GET', `/api/images/${f.imageId}?workspaceId=${ws}`, { workspaceId: ws }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': {
        status: 200,
        then: (answer) => expect(answer.headers.get('content-type')).toMatch(/^image\//),
      },
      'another plain user of A': { status: 200 },
      'an admin of A': { status: 200 },
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.FILE_NOT_FOUND),
      'the super administrator': { status: 200 },
    },
  },
  {
    route: 'GET /api/contents (the history)',
    call: (client, ws) =>
      client.call('GET', `/api/contents?workspaceId=${ws}&limit=100`, { workspaceId: ws }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': listsTheText,
      'another plain user of A': listsTheText,
      'an admin of A': listsTheText,
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': listsNothingOfA,
      'the super administrator': listsTheText,
    },
  },
  {
    route: "GET /api/contents?q= (a word of the author's text)",
    call: (client, ws, f) =>
      client.call('GET', `/api/contents?workspaceId=${ws}&q=${encodeURIComponent(f.word)}`, {
        workspaceId: ws,
      }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': listsTheText,
      'another plain user of A': listsTheText,
      'an admin of A': listsTheText,
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': {
        status: 200,
        then: (answer) => expect(contentIds(answer)).toEqual([]),
      },
      'the super administrator': listsTheText,
    },
  },
  {
    route: "GET /api/contents/:id (the author's text)",
    call: (client, ws, f) =>
      client.call('GET', `/api/contents/${f.textId}?workspaceId=${ws}`, { workspaceId: ws }),
    cells: {
      'signed out': refusedSignedOut,
      'the author (plain user of A)': { status: 200 },
      'another plain user of A': { status: 200 },
      'an admin of A': { status: 200 },
      'an admin of B naming A': refusedByGateway,
      'an admin of B naming B': notFound(ErrorCode.CONTENT_NOT_FOUND),
      'the super administrator': {
        status: 200,
        then: (answer, f) => expect(answer.body).toMatchObject({ id: f.textId }),
      },
    },
  },
  {
    route: "GET /api/contents/:id/conversation (the author's text)",
    call: (client, ws, f) =>
      client.call('GET', `/api/contents/${f.textId}/conversation?workspaceId=${ws}`, {
        workspaceId: ws,
      }),
    cells: Object.fromEntries(
      ACTORS.map((actor): [Actor, Cell] => {
        if (actor === 'signed out') return [actor, refusedSignedOut];
        if (actor === 'an admin of B naming A') return [actor, refusedByGateway];
        if (actor === 'an admin of B naming B')
          return [actor, notFound(ErrorCode.CONTENT_NOT_FOUND)];
        return [
          actor,
          {
            status: 200,
            then: (answer, f) =>
              expect((answer.body as Array<{ id: string }>)[0]).toMatchObject({ id: f.textId }),
          },
        ];
      }),
    ) as Record<Actor, Cell>,
  },
  {
    route: "DELETE /api/contents/:id (a fresh content of the author's)",
    prepare: async (f) =>
      (await generateText(f.author, f.a.workspaceId, f.a.promptId, `to delete ${uniqueName()}`))
        .content.id,
    call: (client, ws, _f, id) =>
      client.call('DELETE', `/api/contents/${id}?workspaceId=${ws}`, { workspaceId: ws }),
    cells: {
      'signed out': kept(refusedSignedOut),
      'the author (plain user of A)': deleted,
      // a member who sees the content but may not delete it
      'another plain user of A': kept({
        status: 403,
        then: (answer) => expect(answer.body).toMatchObject({ code: ErrorCode.AUTH_FORBIDDEN }),
      }),
      'an admin of A': deleted,
      'an admin of B naming A': kept(refusedByGateway),
      'an admin of B naming B': kept(notFound(ErrorCode.CONTENT_NOT_FOUND)),
      'the super administrator': deleted,
    },
  },
  {
    route: 'GET /api/stats',
    call: (client, ws) => client.call('GET', `/api/stats?workspaceId=${ws}`, { workspaceId: ws }),
    cells: Object.fromEntries(
      ACTORS.map((actor): [Actor, Cell] => {
        if (actor === 'signed out') return [actor, refusedSignedOut];
        if (actor === 'an admin of B naming A') return [actor, refusedByGateway];
        if (actor === 'an admin of B naming B')
          // nothing was ever generated in B: A's contents are not counted there
          return [
            actor,
            {
              status: 200,
              then: (answer) =>
                expect(answer.body).toMatchObject({ textContent: 0, imagesGenerated: 0 }),
            },
          ];
        return [
          actor,
          {
            status: 200,
            then: (answer) => {
              const stats = answer.body as { textContent: number; imagesGenerated: number };
              expect(stats.textContent).toBeGreaterThanOrEqual(1);
              expect(stats.imagesGenerated).toBeGreaterThanOrEqual(1);
            },
          },
        ];
      }),
    ) as Record<Actor, Cell>,
  },
];

describe('authorisation of the generation and content routes, through the gateway', () => {
  const baseUrl = stack().url;
  let f: Fixtures;

  beforeAll(async () => {
    const sa = await signIn(baseUrl, superAdmin().username, superAdmin().password);
    const a = await chatWorkspace(sa, uniqueName('Authz A '));
    const b = await chatWorkspace(sa, uniqueName('Authz B '));
    const imagePrompt = await sa.ok<{ id: string }>('POST', '/api/prompts', {
      body: {
        name: 'Reference drawing',
        template: 'Draw {subject} like {file}',
        category: 'Marketing',
        contentType: 'image',
        model: GPT_IMAGE_MODEL,
        isPublic: false,
        isDefault: false,
        workspaceId: a.workspaceId,
      },
      workspaceId: a.workspaceId,
    });
    const member = (prefix: string, ws: number, role: 'admin' | 'user') =>
      createMember(sa, baseUrl, uniqueName(prefix), ws, role);
    const [author, userA, adminA, adminB] = await Promise.all([
      member('author', a.workspaceId, 'user'),
      member('usera', a.workspaceId, 'user'),
      member('admina', a.workspaceId, 'admin'),
      member('adminb', b.workspaceId, 'admin'),
    ]);

    const word = uniqueName('zebra');
    const text = await generateText(author, a.workspaceId, a.promptId, `Tell me about ${word}`);
    const image = await author.ok<{ content: { id: string } }>('POST', '/api/generate-with-image', {
      form: imageForm(imagePrompt.id, a.workspaceId),
      workspaceId: a.workspaceId,
    });
    const upload = await author.ok<{ files: Array<{ id: string }> }>(
      'POST',
      '/api/uploads/chat-attachments',
      { form: attachmentForm(), workspaceId: a.workspaceId },
    );

    f = {
      a: { ...a, imagePromptId: imagePrompt.id },
      b,
      author,
      clients: {
        'signed out': signedOut(baseUrl),
        'the author (plain user of A)': author,
        'another plain user of A': userA,
        'an admin of A': adminA,
        'an admin of B naming A': adminB,
        'an admin of B naming B': adminB,
        'the super administrator': sa,
      },
      names: {
        'signed out': a.workspaceId,
        'the author (plain user of A)': a.workspaceId,
        'another plain user of A': a.workspaceId,
        'an admin of A': a.workspaceId,
        'an admin of B naming A': a.workspaceId,
        'an admin of B naming B': b.workspaceId,
        'the super administrator': a.workspaceId,
      },
      word,
      textId: text.content.id,
      imageId: image.content.id,
      attachmentId: upload.files[0]!.id,
    };
  });

  describe.each(ROUTES.map((r) => [r.route, r] as const))('%s', (_route, routeCase) => {
    it.each(ACTORS.map((actor) => [actor, routeCase.cells[actor].status] as const))(
      'when %s calls it, then the answer is %i',
      async (actor, status) => {
        const cell = routeCase.cells[actor];
        const prepared = routeCase.prepare ? await routeCase.prepare(f) : '';
        const answer = await routeCase.call(f.clients[actor], f.names[actor], f, prepared);
        expect({
          status: answer.status,
          body: answer.status === status ? '' : answer.text,
        }).toEqual({ status, body: '' });
        await cell.then?.(answer, f, prepared);
      },
    );
  });
});
