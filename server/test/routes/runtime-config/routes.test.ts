import { buildTestApp, type TestApp } from '../../support/test-app';

describe('GET /runtime-config.json', () => {
  let apps: TestApp[] = [];

  afterEach(async () => {
    await Promise.all(apps.map((testApp) => testApp.close()));
    apps = [];
  });

  async function start(env: Record<string, string> = {}): Promise<TestApp> {
    const testApp = await buildTestApp('pglite', env);
    apps.push(testApp);
    return testApp;
  }

  it('points every remote at this server by default, even when the web apps are not served (dev)', async () => {
    const { app } = await start({ SERVE_WEB: 'false' });
    const response = await app.inject({ method: 'GET', url: '/runtime-config.json' });
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
          billing: '/remotes/billing/mf-manifest.json',
          share: '/remotes/share/mf-manifest.json',
        },
      },
    });
  });

  it('takes REMOTE_<NAME>_URL overrides, and is revalidated on every use', async () => {
    const { app } = await start({
      REMOTE_SHARE_URL: 'http://127.0.0.1:9999/remotes/share/mf-manifest.json',
      REMOTE_BILLING_URL: 'https://cdn.example.com/billing/v2/mf-manifest.json',
    });
    const response = await app.inject({ method: 'GET', url: '/runtime-config.json' });
    expect(response.json().data.remotes).toEqual({
      search: '/remotes/search/mf-manifest.json',
      dashboard: '/remotes/dashboard/mf-manifest.json',
      billing: 'https://cdn.example.com/billing/v2/mf-manifest.json',
      share: 'http://127.0.0.1:9999/remotes/share/mf-manifest.json',
    });
    expect(response.headers['cache-control']).toBe('no-cache');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);

    const revalidated = await app.inject({
      method: 'GET',
      url: '/runtime-config.json',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });
});
