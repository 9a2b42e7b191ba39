import { buildTestApp, type TestApp } from '../support/test-app';

describe('the OpenAPI document', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('is published at /api/docs/json and lists the routes with their envelopes', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('Kabari API');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/runtime-config.json']),
    );
    const ready = document.paths['/readyz'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(ready.properties)).toEqual(['status', 'message', 'data']);
    // Static file routes are not API.
    expect(Object.keys(document.paths).some((path) => path.includes('*'))).toBe(false);
  });

  it('has a browsable UI at /api/docs', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(response.statusCode);
    const page =
      response.statusCode === 302
        ? await testApp.app.inject({ method: 'GET', url: response.headers.location as string })
        : response;
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/swagger/i);
  });
});
