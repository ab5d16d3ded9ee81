import '../../../test/setup';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import type { Answer } from '@aict/web-kit/testing';
import {
  admin,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';
import { ZipItemCounter } from '../api/workspace-export';

// Issue 18: admins export the whole workspace as one zip, with progress while it streams.

/** A zip entry's local file header naming `name` (what the counter looks for). */
function entryHeader(name: string): Uint8Array {
  const header = new Uint8Array(30 + name.length);
  header.set([0x50, 0x4b, 0x03, 0x04]);
  header[26] = name.length & 0xff;
  header[27] = name.length >> 8;
  for (let i = 0; i < name.length; i++) header[30 + i] = name.charCodeAt(i);
  return header;
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A streamed zip answer: its first chunk, the rest once the test calls `finish()`; or a break. */
function streamedZip(chunks: Uint8Array[], options: { breakAfter?: number } = {}) {
  let allowed = 1;
  let wake: (() => void) | null = null;
  let sent = 0;
  const reader = {
    async read(): Promise<{ done: boolean; value?: Uint8Array }> {
      if (options.breakAfter !== undefined && sent === options.breakAfter)
        throw new TypeError('network error');
      if (sent === chunks.length) return { done: true };
      while (sent >= allowed) await new Promise<void>((resolve) => (wake = resolve));
      return { done: false, value: chunks[sent++] };
    },
  };
  const answer = {
    ok: true,
    status: 200,
    statusText: 'OK',
    text: async () => '',
    headers: new Headers({
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="workspace-1-export-2026-01-02.zip"',
      'x-export-items': '2',
    }),
    body: { getReader: () => reader },
  } as unknown as Answer;
  /** Lets the rest of the chunks come. */
  const finish = () => {
    allowed = Infinity;
    wake?.();
  };
  return { answer, finish };
}

let saved: { name: string; type: string; size: number }[];
beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
  saved = [];
  let blob: Blob | null = null;
  URL.createObjectURL = jest.fn((b: Blob) => {
    blob = b;
    return 'blob:export';
  });
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, type: blob?.type ?? '', size: blob?.size ?? 0 });
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  act(() => applyLanguage('en'));
});

const history = () => json({ items: [], nextCursor: null });

describe('history: export the workspace', () => {
  it('when an admin exports, then the items received show out of the total and the zip is saved', async () => {
    const first = entryHeader('contents/t1.json');
    const second = concat(entryHeader('contents/t1.md'), entryHeader('images/i1.json'));
    const zip = streamedZip([first, second.subarray(0, 40), second.subarray(40)]);
    const calls = stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': history,
      'GET /api/workspaces/1/export': () => zip.answer,
    });
    renderGeneration('/history?type=text');

    fireEvent.click(await screen.findByRole('button', { name: 'Export workspace' }));

    expect(await screen.findByText(/^1 of 2 items · /)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exporting…' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('progressbar').getAttribute('max')).toBe('2');
    act(() => zip.finish());
    await waitFor(() =>
      expect(saved).toEqual([
        {
          name: 'workspace-1-export-2026-01-02.zip',
          type: 'application/zip',
          size: first.length + second.length,
        },
      ]),
    );
    expect(await screen.findByText('Workspace exported')).toBeTruthy();
    expect(calls.filter((c) => c.url.includes('/export')).map((c) => c.url)).toEqual([
      '/api/workspaces/1/export',
    ]);
  });

  it('when the download breaks half-way, then a toast says the export failed and nothing is saved', async () => {
    const zip = streamedZip([entryHeader('contents/t1.json')], { breakAfter: 1 });
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': history,
      'GET /api/workspaces/1/export': () => zip.answer,
    });
    renderGeneration('/history?type=text');

    fireEvent.click(await screen.findByRole('button', { name: 'Export workspace' }));

    expect(await screen.findByText('The workspace export failed')).toBeTruthy();
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export workspace' })).toBeTruthy();
  });

  it('when a member who is no admin opens history, then there is no export button', async () => {
    stubGenerationApi(member, { 'GET /api/contents?workspaceId=1&type=text': history });
    renderGeneration('/history?type=text');

    expect(await screen.findByText('No content yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export workspace' })).toBeNull();
  });

  it('when the language is Dutch, then the button reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stubGenerationApi(admin, { 'GET /api/contents?workspaceId=1&type=text': history });
    renderGeneration('/history?type=text');

    expect(await screen.findByRole('button', { name: 'Werkruimte exporteren' })).toBeTruthy();
  });
});

describe('counting the contents in a streamed zip', () => {
  it('when headers are cut across chunks, then each content entry counts once and others not at all', () => {
    const bytes = concat(
      entryHeader('contents/a.json'),
      new Uint8Array([1, 2, 3, 0x50, 0x4b]),
      entryHeader('contents/a.md'),
      entryHeader('images/b.png'),
      entryHeader('images/b.json'),
      entryHeader('manifest.json'),
    );
    for (const size of [1, 3, 7, 31, bytes.length]) {
      const counter = new ZipItemCounter();
      for (let at = 0; at < bytes.length; at += size) counter.push(bytes.subarray(at, at + size));
      expect(counter.count).toBe(2);
    }
  });
});
