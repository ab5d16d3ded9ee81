import { act, render, screen } from '@testing-library/react';
import { RemoteBoundary, type RemoteModule } from './remote-boundary';

const remoteApp: RemoteModule = { default: () => <h1>Stats</h1> };

describe('RemoteBoundary', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('when the remote loads, then a spinner shows first and the remote after', async () => {
    render(<RemoteBoundary name="generation" load={async () => remoteApp} />);
    expect(screen.getByRole('status')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Stats' })).toBeTruthy();
  });

  it('when the remote fails, then its error shows with Retry, which loads it again', async () => {
    const load = jest
      .fn<Promise<RemoteModule>, []>()
      .mockRejectedValueOnce(new Error('Failed to load script resources'))
      .mockResolvedValueOnce(remoteApp);
    render(
      <div>
        <nav>sidebar</nav>
        <RemoteBoundary name="generation" load={load} />
      </div>,
    );
    expect(await screen.findByText('Failed to load script resources')).toBeTruthy();
    expect(screen.getByText('sidebar')).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByRole('heading', { name: 'Stats' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('when the remote throws while rendering, then the shell keeps running and shows the error', async () => {
    const Broken = () => {
      throw new Error('render failed');
    };
    render(<RemoteBoundary name="admin" load={async () => ({ default: Broken })} />);
    expect(await screen.findByText('render failed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
