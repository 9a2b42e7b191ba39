import { eq } from 'drizzle-orm';
import { visitorReports } from '../../../src/db/schema/accounts';
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

  it('keeps only the page’s address and the referring site: no query string, fragment or credentials', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/locate/userAgent',
      payload: {
        ...report,
        visitorId: 'v-stripped',
        pageUrl: 'https://kabari.example/id/faqs?source=sms&token=Zm9yLXRoZS10ZXN0#answer-3',
        referrerUrl: 'https://user:pass@search.example/results/for/budi?q=budi+santoso#top',
      },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await testApp.app.db.select().from(visitorReports).where(eq(visitorReports.visitorId, 'v-stripped'));
    expect(row).toMatchObject({
      pageUrl: 'https://kabari.example/id/faqs',
      referrerUrl: 'https://search.example/',
      source: 'sms',
    });
  });

  it('keeps the source only when it is a short marker, not free text', async () => {
    for (const [visitorId, source] of [
      ['v-source-long', 'x'.repeat(65)],
      ['v-source-text', 'budi santoso +628123'],
    ]) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/locate/userAgent',
        payload: { ...report, visitorId, source },
      });
      expect(response.statusCode).toBe(200);
      const [row] = await testApp.app.db.select().from(visitorReports).where(eq(visitorReports.visitorId, visitorId!));
      expect(row?.source).toBeNull();
    }
  });

  it.each([
    ['https://kabari.example/enter-link?token=Zm9yLXRoZS10ZXN0', 'en'],
    ['https://kabari.example/id/enter-link/?token=Zm9yLXRoZS10ZXN0', 'id'],
    ['https://kabari.example/share', 'en'],
    ['https://kabari.example/id/location-failed?t=abc&reason=denied', 'id'],
  ])('refuses a report sent from a recipient’s page (%s) and stores nothing', async (pageUrl, locale) => {
    const before = await testApp.app.db.select().from(visitorReports);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/locate/userAgent',
      headers: { 'accept-language': locale },
      payload: { ...report, visitorId: 'v-recipient', pageUrl },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      locale === 'en'
        ? 'A visitor report is never sent from the pages of a location request.'
        : 'Laporan pengunjung tidak pernah dikirim dari halaman permintaan lokasi.',
    );
    expect(await testApp.app.db.select().from(visitorReports)).toHaveLength(before.length);
  });

  it.each([
    [{ ...report, deviceType: 'fridge' }, 'deviceType: deviceType must be mobile, tablet or desktop'],
    [{ ...report, visitorId: '' }, 'visitorId: visitorId is required'],
    [{ ...report, visitTime: 'yesterday' }, 'visitTime: visitTime must be an ISO timestamp'],
    [{ ...report, pageUrl: 'kabari page' }, 'pageUrl: pageUrl must be an http or https address'],
  ])('refuses a bad report and names the field', async (payload, message) => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/v1/locate/userAgent', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 400, message, data: null });
  });
});
