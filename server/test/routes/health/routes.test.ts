import { describeEachDatabase } from '../../support/databases';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('health probes', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('answers /healthz without the database', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 200, message: 'ok' });
    expect(typeof body.data.uptimeSeconds).toBe('number');
  });

  it('answers /readyz when the database answers select 1', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { database: driver } });
  });

  it('answers /readyz with 503 when the database is gone', async () => {
    const app = testApp.app;
    const original = app.dbClient.ping;
    app.dbClient.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 503, message: 'The database is not answering', data: null });
    } finally {
      app.dbClient.ping = original;
    }
  });
});
