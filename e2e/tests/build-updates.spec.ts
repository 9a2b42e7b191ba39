import { test, expect } from '../support/fixtures';
import { recordToasts, startPublicPageApp, toasts } from '../support/app-helpers';

const newVersion = 'A new version of Kabari is available.';

test.describe('the latest-build check', () => {
  test('the running build is the latest: nothing is offered', async ({ page, request }) => {
    const latest = await request.get('/latest-build.json');
    expect(latest.headers()['cache-control']).toBe('no-cache');
    expect((await latest.json()).buildId).toMatch(/^[0-9a-f]{16,}$/);
    // The public pages start the app, and its check, on the visitor's first use.
    await page.goto('/about-us');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/latest-build.json')), startPublicPageApp(page)]);
    await page.waitForLoadState('networkidle');
    await expect(toasts(page)).toHaveCount(0);
  });

  test('a new deployment is noticed every five minutes and a reload offered', async ({ page }) => {
    await page.clock.install();
    let deployed: string | null = null;
    await page.route('**/latest-build.json', (route) =>
      deployed ? route.fulfill({ json: { buildId: deployed } }) : route.continue(),
    );
    await page.goto('/id/about-us');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/latest-build.json')), startPublicPageApp(page)]);
    deployed = 'a-newer-build';
    await page.clock.fastForward('05:00');
    await expect(toasts(page).filter({ hasText: 'Versi baru Kabari sudah tersedia.' })).toBeVisible();
    await expect(toasts(page).getByRole('button', { name: 'Muat ulang' })).toBeVisible();
  });

  test('Reload reloads; another reload within 10 s is refused, so a stale page cannot loop', async ({ page }) => {
    await page.route('**/latest-build.json', (route) => route.fulfill({ json: { buildId: 'a-newer-build' } }));
    await page.goto('/about-us');
    await startPublicPageApp(page);
    const notice = toasts(page).filter({ hasText: newVersion });
    await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Reload' }).click()]);
    const reloadedAt = Number(await page.evaluate(() => sessionStorage.getItem('kabari-reloaded-at')));
    expect(Date.now() - reloadedAt).toBeLessThan(60_000);

    // Still not the new build after the reload (a stale cache): offered again once the page is used, but refused.
    await startPublicPageApp(page);
    await expect(notice).toBeVisible();
    await page.evaluate(() => {
      sessionStorage.setItem('kabari-reloaded-at', String(Date.now()));
      (window as unknown as { samePage: boolean }).samePage = true;
    });
    const refused = page.waitForEvent('console', (message) => message.text().includes('reload skipped'));
    await notice.getByRole('button', { name: 'Reload' }).click();
    await refused;
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  });
});

test.describe('route rules from the build', () => {
  test('the shipped rules redirect /index.html home', async ({ page, request }) => {
    const rules = await request.get('/route-rules.json');
    expect(rules.headers()['cache-control']).toBe('no-cache');
    expect(await rules.json()).toEqual({ rules: { '/index.html': { redirect: '/' } } });
    await page.goto('/index.html');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.locator('main [data-remote="search"] h1').first()).toBeVisible();
  });

  // A retired address, as rules are used: no page of ours answers it, so the app starts at once and applies them.
  test('a rule redirects inside the app in the language of the page, or away by a full page load', async ({ page }) => {
    await page.route('**/route-rules.json', (route) =>
      route.fulfill({
        json: {
          rules: {
            '/questions': { redirect: '/faqs' },
            '/press': { redirect: 'https://press.example.test/kabari' },
          },
        },
      }),
    );
    await page.route('https://press.example.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Press room</h1>' }),
    );
    await page.goto('/id/questions/?source=sms');
    await expect(page).toHaveURL(/\/id\/faqs\?source=sms$/);
    await page.goto('/press');
    await expect(page).toHaveURL('https://press.example.test/kabari');
    await expect(page.getByRole('heading', { name: 'Press room' })).toBeVisible();
  });

  test('without rules the app works as built; the failure is only logged', async ({ page }) => {
    await page.route('**/route-rules.json', (route) => route.fulfill({ status: 503, body: '' }));
    const shownToasts = await recordToasts(page);
    const logged = page.waitForEvent('console', (message) => message.text().includes('route rules unavailable'));
    await page.goto('/index.html');
    await logged;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await page.waitForLoadState('networkidle');
    expect(await shownToasts()).toEqual([]);
  });
});
