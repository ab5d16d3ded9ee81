import '../../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { AuditEntry, AuditPage } from '@aict/contracts';
import { answer, buildUser, buildWorkspace, stubApi } from '@aict/web-kit/testing';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { renderAdmin } from '../../../test/render-admin';

// /audit (issue 17): the audit log for admins, newest first, with filters, paging and the
// CSV link; a workspace admin reads the current workspace, the super admin everything.

const acme = buildWorkspace(1, 'Acme');
const admin = buildUser({ id: 'u1', username: 'ada', workspaceRoles: { '1': 'admin' } });
const member = buildUser({ id: 'u2', username: 'mo', workspaceRoles: { '1': 'user' } });
const superAdmin = buildUser({ id: 'u0', username: 'root', isSuperAdmin: true });

function buildEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    seq: 7,
    at: '2026-11-20T10:15:00.000Z',
    actorId: 'u1',
    actorName: null,
    workspaceId: 1,
    action: 'membership.changed',
    targetType: 'user',
    targetId: 'u2',
    before: { role: 'user' },
    after: { role: 'admin' },
    clientAddress: '10.0.0.1',
    requestId: 'req-1',
    hash: 'a'.repeat(64),
    prevHash: 'b'.repeat(64),
    ...overrides,
  };
}

function auditServer(user = admin, pages: Record<string, AuditPage> = {}) {
  return stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, [acme]),
    'GET /api/audit?workspaceId=1': () =>
      answer(200, pages.first ?? { entries: [buildEntry()], next: 7 }),
    'GET /api/audit?workspaceId=1&before=7': () =>
      answer(200, {
        entries: [buildEntry({ seq: 3, action: 'api-token.created', after: null })],
        next: null,
      }),
    'GET /api/audit?workspaceId=1&action=user.deleted': () =>
      answer(200, { entries: [], next: null }),
    'GET /api/audit?scope=platform': () =>
      answer(200, {
        entries: [buildEntry({ workspaceId: null, action: 'session.login' })],
        next: null,
      }),
  });
}

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

describe('the audit screen', () => {
  it('when a workspace admin opens it, then the workspace entries, the older page and the CSV link show', async () => {
    auditServer();
    renderAdmin('/audit');

    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    expect(within(table).getByText('membership.changed')).toBeTruthy();
    expect(within(table).getByText('role: user → role: admin')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/audit/export?workspaceId=1',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Older entries' }));

    expect(await within(table).findByText('api-token.created')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Older entries' })).toBeNull();
  });

  it('when an entry names its actor by id only, then the actor shows by username', async () => {
    stubApi({
      'GET /api/user': () => answer(200, admin),
      'GET /api/user/workspaces': () => answer(200, [acme]),
      'GET /api/audit?workspaceId=1': () =>
        answer(200, {
          entries: [buildEntry(), buildEntry({ seq: 6, actorId: 'u-gone' })],
          next: null,
        }),
      'GET /api/users': () => answer(200, [admin, member]),
    });
    renderAdmin('/audit');

    const table = await screen.findByRole('table', { name: 'Audit entries' });
    expect(await within(table).findByText('ada')).toBeTruthy();
    // Someone the admin may not list (removed since) keeps their id.
    expect(within(table).getByText('u-gone')).toBeTruthy();
  });

  it('when filters are applied, then the list and the CSV link follow them', async () => {
    const calls = auditServer();
    renderAdmin('/audit');
    await screen.findByRole('table', { name: 'Audit entries' });

    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'user.deleted' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));

    expect(await screen.findByText('No entries match these filters.')).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/api/audit?workspaceId=1&action=user.deleted'))).toBe(
      true,
    );
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/audit/export?workspaceId=1&action=user.deleted',
    );
  });

  it('when the super admin opens it with a workspace in view, then everything shows, sign-ins included', async () => {
    auditServer(superAdmin);
    renderAdmin('/audit');

    const table = await screen.findByRole('table', { name: 'Audit entries' });
    expect(within(table).getByText('Signed in')).toBeTruthy();
    expect(within(table).getByText('session.login')).toBeTruthy();
    expect(
      (screen.getByLabelText('Show') as HTMLSelectElement).selectedOptions[0]?.textContent,
    ).toBe('Everything (all workspaces, sign-ins, platform)');
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/audit/export?scope=platform',
    );
  });

  it('when the super admin chooses this workspace only, then only its entries are asked for, and back', async () => {
    const calls = auditServer(superAdmin);
    renderAdmin('/audit');
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    await within(table).findByText('Signed in');

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'workspace' } });

    expect(await screen.findByText('Membership or role changed')).toBeTruthy();
    expect(screen.queryByText('Signed in')).toBeNull();
    expect(calls.some((c) => c.url.endsWith('/api/audit?workspaceId=1'))).toBe(true);
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/audit/export?workspaceId=1',
    );

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'platform' } });
    expect(await screen.findByText('Signed in')).toBeTruthy();
  });

  it('when a workspace admin opens it, then there is no choice of scope and never the platform', async () => {
    const calls = auditServer();
    renderAdmin('/audit');
    await screen.findByRole('table', { name: 'Audit entries' });

    expect(screen.queryByLabelText('Show')).toBeNull();
    expect(calls.some((c) => c.url.includes('scope=platform'))).toBe(false);
  });

  it('when it is shown in Dutch, then the texts are Dutch', async () => {
    auditServer();
    act(() => applyLanguage('nl'));
    renderAdmin('/audit');

    expect(await screen.findByRole('heading', { name: 'Auditlog' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Audititems' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filters toepassen' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'CSV exporteren' })).toBeTruthy();
    expect(screen.getByLabelText('Uitvoerder')).toBeTruthy();
    expect(screen.getByText('Lidmaatschap of rol gewijzigd')).toBeTruthy();
  });

  it('when the super admin reads it in Dutch, then the scope choice and the labels are Dutch', async () => {
    auditServer(superAdmin);
    act(() => applyLanguage('nl'));
    renderAdmin('/audit');

    expect(await screen.findByText('Aangemeld')).toBeTruthy();
    const scope = screen.getByLabelText('Toon') as HTMLSelectElement;
    expect([...scope.options].map((o) => o.textContent)).toEqual([
      'Alles (alle workspaces, aanmeldingen, platform)',
      'Alleen deze workspace',
    ]);
  });

  it('when a member opens it, then the admin-only card shows instead', async () => {
    auditServer(member);
    renderAdmin('/audit');

    expect(await screen.findByText('Admin Access Required')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Audit log' })).toBeNull();
  });
});
