import { test, expect } from '../support/fixtures';

const pages = [
  { path: '/', text: 'Ask a relative where they are, with their consent' },
  { path: '/id/', text: 'Tanyakan lokasi kerabat Anda, dengan persetujuan mereka' },
  { path: '/enter-link?token=abc', text: 'Location request' },
  { path: '/id/enter-link', text: 'Permintaan lokasi' },
];

test.describe('prerendered pages', () => {
  for (const { path, text } of pages) {
    test(`${path} reads before any script runs, and hydrates cleanly`, async ({ request, page }) => {
      const response = await request.get(path);
      expect(response.headers()['cache-control']).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain(text);
      expect(html).toContain(path.startsWith('/id') ? '<html lang="id"' : '<html lang="en"');
      expect(html).not.toContain('kabari-page-->');

      const problems: string[] = [];
      page.on('console', (message) => {
        if (/hydrat|did not match|mismatch/i.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      await page.goto(path);
      // Interactive once hydrated: the language switch navigates on the client, keeping the page.
      await expect(page.locator('main h1')).toHaveText(text);
      await page.locator('.language-switch').click();
      await expect(page.locator('main h1')).not.toHaveText(text);
      expect(problems).toEqual([]);
    });
  }

  test("the app's scripts start only after the prerendered page has painted", async ({ page }) => {
    await page.addInitScript(() => {
      const seen = window as unknown as { entryAddedAt?: number };
      // Parser-inserted or added by a script, the entry's <script> element shows up here.
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof HTMLScriptElement && /\/main\.[0-9a-f]+\.js$/.test(node.src)) {
              seen.entryAddedAt ??= performance.now();
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/about-us');
    await expect(page.locator('header').getByRole('button', { name: 'Log in' })).toBeVisible();
    const { entryAddedAt, firstPaint } = await page.evaluate(() => ({
      entryAddedAt: (window as unknown as { entryAddedAt?: number }).entryAddedAt,
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    }));
    expect(firstPaint).toBeGreaterThan(0);
    expect(entryAddedAt).toBeGreaterThanOrEqual(firstPaint!);
  });

  test('a signed-in user is sent from a visitor-only page to the dashboard by the server, before any page shows', async ({
    request,
  }) => {
    const signedIn = { cookie: 'token=e2e-session' };
    for (const [path, target] of [
      ['/faqs', '/dashboard/'],
      ['/id/about-us', '/id/dashboard/'],
      ['/id/', '/id/dashboard/'],
    ] as const) {
      const response = await request.get(path, { headers: signedIn, maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location).toBe(target);
    }
    // The recipient's pages are for anyone.
    expect((await request.get('/enter-link?token=abc', { headers: signedIn, maxRedirects: 0 })).status()).toBe(200);
  });

  test('without JavaScript the prerendered page is still readable and styled', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/id/');
    await expect(page.locator('main h1')).toHaveText('Tanyakan lokasi kerabat Anda, dengan persetujuan mereka');
    const fontSize = await page.locator('main h1').evaluate((element) => getComputedStyle(element).fontSize);
    expect(fontSize).toBe('32px');
    await context.close();
  });
});
