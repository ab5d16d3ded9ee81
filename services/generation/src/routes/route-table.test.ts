import {
  checkAnswer,
  mountedApiRoutes,
  newWorkspaceId,
  startServiceHarness,
  tableRoutesOf,
  userOf,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { start } from '../main';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'generation', start, listen: false });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

describe('generation service: the route table', () => {
  it('when the service has started, then it mounts exactly the routes the table gives it', () => {
    expect(mountedApiRoutes(h.service.app)).toEqual(tableRoutesOf('generation'));
  });

  it('when a member uploads a chat attachment, then the answer is what the table says', async () => {
    const workspaceId = newWorkspaceId();
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const url = '/api/uploads/chat-attachments';
    const answer = await h.call('POST', url, {
      as: userOf(workspaceId),
      headers: { 'x-workspace-id': String(workspaceId) },
      form,
    });

    expect(checkAnswer('POST', url, answer)).toMatchObject({
      files: [{ originalName: 'notes.txt', mimeType: 'text/plain', size: 5 }],
    });
  });
});
