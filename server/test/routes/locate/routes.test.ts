import { visitorReports } from '../../../src/db/schema';
import { describeEachDatabase } from '../../support/databases';
import { buildTestApp, type TestApp } from '../../support/test-app';

const report = {
  visitorId: 'v-3c1f9a',
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
  osName: 'Android',
  osVersion: '14',
  browserName: 'Chrome',
  browserVersion: '126.0',
  deviceType: 'mobile',
  deviceBrand: 'Google',
  deviceModel: 'Pixel 8',
  pageUrl: 'https://kabari.example/id/?source=sms',
  referrerUrl: '',
  source: 'sms',
  visitTime: '2026-11-22T01:02:03.456Z',
};

describeEachDatabase('POST /api/v1/locate/userAgent', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('stores the device report, and no IP address', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/locate/userAgent',
      payload: report,
      remoteAddress: '203.0.113.77',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { recorded: true } });

    const rows = await testApp.app.db.select().from(visitorReports);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      visitorId: 'v-3c1f9a',
      deviceType: 'mobile',
      deviceModel: 'Pixel 8',
      referrerUrl: null,
      source: 'sms',
      visitTime: new Date('2026-11-22T01:02:03.456Z'),
    });
    expect(JSON.stringify(rows)).not.toContain('203.0.113.77');
  });

  it('accepts a minimal report (the parser found nothing about the device)', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/locate/userAgent',
      payload: { visitorId: 'v-min', userAgent: 'curl/8', deviceType: 'desktop', visitTime: report.visitTime },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    [{ ...report, deviceType: 'fridge' }, 'deviceType: deviceType must be mobile, tablet or desktop'],
    [{ ...report, visitorId: '' }, 'visitorId: visitorId is required'],
    [{ ...report, visitTime: 'yesterday' }, 'visitTime: visitTime must be an ISO timestamp'],
  ])('refuses a bad report and names the field', async (payload, message) => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/v1/locate/userAgent', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 400, message, data: null });
  });
});
