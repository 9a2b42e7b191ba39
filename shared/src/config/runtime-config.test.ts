import { fetchRuntimeConfig } from './runtime-config';

const remotes = {
  search: '/remotes/search/mf-manifest.json',
  dashboard: '/remotes/dashboard/mf-manifest.json',
  billing: 'https://cdn.example.test/billing/mf-manifest.json',
  share: '/remotes/share/mf-manifest.json',
  operator: '/remotes/operator/mf-manifest.json',
};
const map = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution: '&copy; OpenStreetMap contributors',
};

function respond(status: number, body: unknown) {
  global.fetch = jest.fn().mockResolvedValue({ ok: status < 300, status, json: async () => body });
}

describe('fetchRuntimeConfig', () => {
  it('reads the remotes from the envelope', async () => {
    respond(200, { status: 200, message: 'ok', data: { apiBaseUrl: '', appId: 'kabari-web', remotes, map } });
    await expect(fetchRuntimeConfig()).resolves.toEqual({ apiBaseUrl: '', appId: 'kabari-web', remotes, map });
    expect(global.fetch).toHaveBeenCalledWith('/runtime-config.json', expect.objectContaining({ cache: 'no-cache' }));
  });

  it('rejects a configuration that lacks a remote', async () => {
    respond(200, {
      status: 200,
      message: 'ok',
      data: { apiBaseUrl: '', appId: 'kabari-web', remotes: { ...remotes, share: '' }, map },
    });
    await expect(fetchRuntimeConfig()).rejects.toThrow(/invalid/);
  });

  it('rejects a configuration without the application id', async () => {
    respond(200, { status: 200, message: 'ok', data: { apiBaseUrl: '', remotes, map } });
    await expect(fetchRuntimeConfig()).rejects.toThrow(/invalid/);
  });

  it('rejects a configuration without the map tiles', async () => {
    respond(200, { status: 200, message: 'ok', data: { apiBaseUrl: '', appId: 'kabari-web', remotes } });
    await expect(fetchRuntimeConfig()).rejects.toThrow(/invalid/);
  });

  it('rejects an HTTP error', async () => {
    respond(503, {});
    await expect(fetchRuntimeConfig()).rejects.toThrow(/503/);
  });
});
