import { render, screen } from '@testing-library/react';
import { ReviewBadge } from './content-review';

describe('ReviewBadge', () => {
  it('when changes are requested with a comment, then the comment shows as text beside the badge', () => {
    render(<ReviewBadge review={{ state: 'changes-requested', comment: 'Add the price' }} />);
    expect(screen.getByText('Changes requested').textContent).toBe('Changes requested');
    expect(screen.getByText('Changes requested: Add the price')).toBeTruthy();
  });

  it('when a content sent back is in review again, then only its state shows, not the old comment', () => {
    render(<ReviewBadge review={{ state: 'in-review', comment: 'Add the price' }} />);
    expect(screen.getByText('In review')).toBeTruthy();
    expect(screen.queryByText(/Add the price/)).toBeNull();
  });

  it('when a content was never reviewed, then it shows as a draft', () => {
    render(<ReviewBadge review={undefined} />);
    expect(screen.getByText('Draft')).toBeTruthy();
  });
});
