import { loadConfig } from '../../../src/config';
import { runtimeConfigOf } from '../../../src/routes/runtime-config/routes';
import { buildTestApp, type TestApp } from '../../support/test-app';

describe('runtimeConfigOf', () => {
  it('points every remote at this server by default', () => {
    expect(runtimeConfigOf(loadConfig({}))).toEqual({
      apiBaseUrl: '',
      appId: 'kabari-web',
      remotes: {
        search: '/remotes/search/mf-manifest.json',
        dashboard: '/remotes/dashboard/mf-manifest.json',
        billing: '/remotes/billing/mf-manifest.json',
        share: '/remotes/share/mf-manifest.json',
        operator: '/remotes/operator/mf-manifest.json',
      },
      map: {
        tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        tileAttribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
      },
    });
  });
});

describe('GET /runtime-config.json (development: the web apps are not served)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', {
      SERVE_WEB: 'false',
      REMOTE_SHARE_URL: 'http://127.0.0.1:9999/remotes/share/mf-manifest.json',
      REMOTE_BILLING_URL: 'https://cdn.example.com/billing/v2/mf-manifest.json',
      TILE_URL: 'https://{s}.tiles.example.com/osm/{z}/{x}/{y}{r}.png',
      TILE_ATTRIBUTION: '&copy; Example Tiles',
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('exists in every mode, with the REMOTE_<NAME>_URL overrides', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/runtime-config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 200,
      message: 'ok',
      data: {
        apiBaseUrl: '',
        appId: 'kabari-web',
        remotes: {
          search: '/remotes/search/mf-manifest.json',
          dashboard: '/remotes/dashboard/mf-manifest.json',
          billing: 'https://cdn.example.com/billing/v2/mf-manifest.json',
          share: 'http://127.0.0.1:9999/remotes/share/mf-manifest.json',
          operator: '/remotes/operator/mf-manifest.json',
        },
        map: {
          tileUrl: 'https://{s}.tiles.example.com/osm/{z}/{x}/{y}{r}.png',
          tileAttribution: '&copy; Example Tiles',
        },
      },
    });
  });

  it('is revalidated on every use (no-cache and an ETag)', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/runtime-config.json' });
    expect(response.headers['cache-control']).toBe('no-cache');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const revalidated = await testApp.app.inject({
      method: 'GET',
      url: '/runtime-config.json',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('leaves page paths alone when the web apps are not served: a 404 envelope', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/about-us', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, data: null });
  });
});
