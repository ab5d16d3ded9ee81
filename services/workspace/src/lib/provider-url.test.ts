import { assertAllowedBaseUrl, normaliseBaseUrl } from './provider-url';

const strict = (addresses: string[]) => ({
  allowedOrigins: [],
  resolve: async () => addresses,
});

describe('provider base URL policy', () => {
  it('when a host name resolves to public addresses only, then it is allowed', async () => {
    await expect(
      assertAllowedBaseUrl(
        'https://my-resource.openai.azure.com/openai',
        strict(['20.1.2.3', '2603:1030::1']),
      ),
    ).resolves.toBeUndefined();
  });

  it('when any address of the host name is private, then it is refused', async () => {
    await expect(
      assertAllowedBaseUrl('https://rebind.example.com/v1', strict(['8.8.8.8', '10.0.0.5'])),
    ).rejects.toMatchObject({ code: 'PROVIDER.URL_NOT_ALLOWED', status: 400 });
  });

  it('when the host name does not resolve, then it is refused as invalid', async () => {
    const policy = {
      allowedOrigins: [],
      resolve: () => Promise.reject(new Error('ENOTFOUND')),
    };

    await expect(assertAllowedBaseUrl('https://nowhere.invalid/v1', policy)).rejects.toMatchObject({
      code: 'VALIDATION.FAILED',
    });
  });

  it("when the URL is on the simulator's allowed origin, then loopback over http is accepted without a look-up", async () => {
    const resolve = jest.fn();

    await expect(
      assertAllowedBaseUrl('http://127.0.0.1:4191/v1', {
        allowedOrigins: ['http://127.0.0.1:4191'],
        resolve,
      }),
    ).resolves.toBeUndefined();
    expect(resolve).not.toHaveBeenCalled();
  });

  it.each([
    ['another port of the same host', 'http://127.0.0.1:9000/v1'],
    ['the same port by another name', 'http://localhost:4191/v1'],
    ['https on the same host', 'https://127.0.0.1:4191/v1'],
    ['the cloud metadata address', 'http://169.254.169.254/latest'],
  ])(
    'when only the simulator is allowed and the URL is on %s, then it is refused',
    async (_what, url) => {
      const policy = {
        allowedOrigins: ['http://127.0.0.1:4191'],
        resolve: async () => ['127.0.0.1'],
      };

      await expect(assertAllowedBaseUrl(url, policy)).rejects.toMatchObject({
        code: 'PROVIDER.URL_NOT_ALLOWED',
        status: 400,
      });
    },
  );

  it('when a URL is normalised, then the trailing slash and fragment go', () => {
    expect(normaliseBaseUrl(' https://api.openai.com/v1/#x ')).toBe('https://api.openai.com/v1');
  });
});
