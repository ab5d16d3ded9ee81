import '../../../test/setup';
import { act, screen, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import { json, member, renderGeneration, stubGenerationApi } from '../../../test/generation-api';

// The stats' count of contents per review state (issue 18), in English and Dutch.

function stub() {
  return stubGenerationApi(member, {
    'GET /api/stats?workspaceId=1': () =>
      json({
        totalPrompts: 1,
        textContent: 6,
        imagesGenerated: 3,
        reviews: { draft: 4, 'in-review': 2, approved: 2, 'changes-requested': 1 },
      }),
    'GET /api/prompts?workspaceId=1': () => json([]),
    'GET /api/contents?workspaceId=1&type=text&limit=2': () =>
      json({ items: [], nextCursor: null }),
    'GET /api/contents?workspaceId=1&type=image&limit=4': () =>
      json({ items: [], nextCursor: null }),
  });
}

const countsText = async (name: string) =>
  within(await screen.findByRole('list', { name }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

afterEach(() => act(() => applyLanguage('en')));

describe('Stats review counts', () => {
  it('when the stats are in, then each review state shows its count', async () => {
    stub();
    renderGeneration('/stats');
    expect(await countsText('Contents per review state')).toEqual([
      'Draft 4',
      'In review 2',
      'Approved 2',
      'Changes requested 1',
    ]);
  });

  it('when the page is in Dutch, then the states read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stub();
    renderGeneration('/stats');
    expect(await countsText('Content per reviewstatus')).toEqual([
      'Concept 4',
      'In review 2',
      'Goedgekeurd 2',
      'Wijzigingen gevraagd 1',
    ]);
  });
});
