import { screen, waitFor } from '@testing-library/react';
import { answer, buildUser, buildWorkspace, renderWithProviders, stubApi } from '../test';
import { Page } from './page';

describe('Page', () => {
  it('when a screen renders, then its title is the heading and the page title, with its actions beside it', async () => {
    localStorage.clear();
    stubApi({
      'GET /api/user': () => answer(200, buildUser()),
      'GET /api/user/workspaces': () => answer(200, [buildWorkspace(1, 'Acme')]),
    });
    renderWithProviders(
      <Page title="Prompts" description="Reusable templates." actions={<button>Create</button>}>
        content
      </Page>,
    );
    const region = screen.getByRole('region', { name: 'Prompts' });
    expect(screen.getByRole('heading', { level: 1, name: 'Prompts' })).toBeTruthy();
    expect(region.textContent).toBe('PromptsReusable templates.Createcontent');
    await waitFor(() => expect(document.title).toMatch(/^Prompts - Acme - /));
  });
});
