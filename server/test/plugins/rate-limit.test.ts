import { buildTestApp, type TestApp } from '../support/test-app';

describe('the global rate limit', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('counts API calls per address, not the web app files a page load fetches', async () => {
    for (let i = 0; i < 610; i += 1) {
      const response = await testApp.app.inject({ method: 'GET', url: '/runtime-config.json' });
      expect(response.statusCode).toBe(200);
    }
    let last = 0;
    for (let i = 0; i < 601; i += 1) {
      last = (await testApp.app.inject({ method: 'GET', url: '/api/v1/no-such-route' })).statusCode;
    }
    expect(last).toBe(429);
  });
});
