import type { Request } from '@playwright/test';
import { testFromOwnAddress as test, expect } from '../support/fixtures';
import { startPublicPageApp } from '../support/app-helpers';

const reportUrl = '/api/v1/locate/userAgent';

test.describe('the visitor report', () => {
  test('a first visit gets the visitor id cookies and sends one device report, with its source', async ({
    page,
    context,
  }) => {
    const reports: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(reportUrl)) reports.push(request);
    });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(reportUrl)),
      page.goto('/id/faqs?source=sms&code=123456#contact'),
    ]);
    expect(response.status()).toBe(200);

    const cookies = await context.cookies();
    const twin = cookies.find((cookie) => cookie.name === 'FB_G_P_L_Visitor_Id');
    expect(twin).toBeDefined();
    expect(twin!.path).toBe('/');
    expect(twin!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
    // The Secure one is kept where the page is secure (Chromium counts 127.0.0.1 as such).
    const visitorCookie = cookies.find((cookie) => cookie.name === 'G_P_L_Visitor_Id');
    expect(visitorCookie).toEqual(
      expect.objectContaining({ value: twin!.value, path: '/', secure: true, sameSite: 'Lax' }),
    );
    expect(visitorCookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

    const report = reports[0]!.postDataJSON();
    expect(report).toEqual(
      expect.objectContaining({
        visitorId: twin!.value,
        source: 'sms',
        deviceType: 'desktop',
        browserName: expect.stringMatching(/Chrom/),
        // The page the visit began on, never its query string or fragment.
        pageUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/id\/faqs$/),
        visitTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    );
    expect(reports[0]!.headers()['application-id']).toBe('kabari-web');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('kabari-visitor-reported'))).toBe(twin!.value);

    // Once per visitor and host: neither a reload nor another page sends it again. (The report goes once the
    // page has loaded and the browser is idle: each page is given that chance.)
    await page.reload();
    await startPublicPageApp(page);
    await page.waitForLoadState('networkidle');
    await page.goto('/about-us');
    await startPublicPageApp(page);
    await page.waitForLoadState('networkidle');
    expect(reports).toHaveLength(1);
  });

  test('a failed report is only logged, and sent again on the next load', async ({ page }) => {
    let calls = 0;
    await page.route(`**${reportUrl}`, async (route) => {
      calls += 1;
      if (calls === 1) await route.fulfill({ status: 503, body: '' });
      else await route.continue();
    });
    const warned = page.waitForEvent('console', (message) => message.text().includes('visitor report not sent'));
    await page.goto('/about-us');
    await startPublicPageApp(page);
    await warned;
    expect(await page.evaluate(() => localStorage.getItem('kabari-visitor-reported'))).toBeNull();
    await page.reload();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(reportUrl)), startPublicPageApp(page)]);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('kabari-visitor-reported'))).not.toBeNull();
    expect(calls).toBe(2);
  });

  test('a visitor who only reads a public page is not reported; their first use of it is', async ({ page }) => {
    const reports: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(reportUrl)) reports.push(request);
    });
    await page.goto('/id/');
    await page.waitForLoadState('networkidle');
    expect(reports).toHaveLength(0);
    expect(await page.evaluate(() => document.cookie)).not.toContain('Visitor_Id');
    await Promise.all([page.waitForRequest((r) => r.url().endsWith(reportUrl)), startPublicPageApp(page)]);
    expect(reports[0]!.postDataJSON().pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/id\/$/);
  });

  test('a stored visitor id is kept: the part before ___', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'G_P_L_Visitor_Id', value: 'known-visitor___1700000000', url: baseURL! }]);
    await page.goto('/faqs');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(reportUrl)),
      startPublicPageApp(page),
    ]);
    expect(request.postDataJSON().visitorId).toBe('known-visitor');
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'FB_G_P_L_Visitor_Id')?.value).toBe('known-visitor');
  });
});
