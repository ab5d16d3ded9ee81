import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ImageDialog } from './image-dialog';

const item = {
  title: 'Summer Sale Banner',
  content: '/api/images/c1?workspaceId=1',
  model: 'dall-e-3',
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
};

describe('ImageDialog', () => {
  let saved: { href: string; download: string }[];
  beforeEach(() => {
    saved = [];
    URL.createObjectURL = jest.fn(() => 'blob:image');
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ href: this.href, download: this.download });
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('when an image is open, then it shows the image, its model and relative time', () => {
    render(<ImageDialog item={item} onOpenChange={() => undefined} />);
    const image = screen.getByRole('img', { name: 'Summer Sale Banner' });
    expect(image.getAttribute('src')).toBe('/api/images/c1?workspaceId=1');
    expect(screen.getByText('dall-e-3')).toBeTruthy();
    expect(screen.getByText('5 minutes ago')).toBeTruthy();
  });

  it('when Download Image is pressed, then the image is fetched and saved under the title name', async () => {
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      blob: async () => new Blob(['jpg']),
    })) as unknown as typeof fetch;
    render(<ImageDialog item={item} onOpenChange={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Image' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('summer-sale-banner.jpg');
    expect(globalThis.fetch).toHaveBeenCalledWith('/api/images/c1?workspaceId=1', {
      credentials: 'include',
    });
  });

  it('when the image is really a PNG, then Download Image saves it with a .png name', async () => {
    const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      blob: async () => new Blob([pngBytes], { type: 'image/png' }),
    })) as unknown as typeof fetch;
    render(<ImageDialog item={item} onOpenChange={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Image' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('summer-sale-banner.png');
  });

  it('when the server sends no image type, then the name follows the PNG bytes', async () => {
    const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      blob: async () => new Blob([pngBytes], { type: 'application/octet-stream' }),
    })) as unknown as typeof fetch;
    render(<ImageDialog item={item} onOpenChange={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Image' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('summer-sale-banner.png');
  });

  it('when the download fails, then it is only logged to the console', async () => {
    globalThis.fetch = jest.fn(async () => ({
      ok: false,
      status: 404,
      statusText: 'Not Found',
    })) as unknown as typeof fetch;
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<ImageDialog item={item} onOpenChange={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Image' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(saved).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when no item is given or Close is pressed, then the dialog is closed or asks to close', () => {
    const onOpenChange = jest.fn();
    const { rerender } = render(<ImageDialog item={null} onOpenChange={onOpenChange} />);
    expect(screen.queryByRole('img')).toBeNull();
    rerender(<ImageDialog item={item} onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
