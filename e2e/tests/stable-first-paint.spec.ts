import { test, expect } from '../support/fixtures';
import { startPublicPageApp } from '../support/app-helpers';

// A prerendered page must not move or blink while it comes to life: no layout shift, and never the
// loading fallback in place of the prerendered page while its remote loads.
const pages = ['/', '/id/', '/enter-link?token=abc', '/id/enter-link'];

test.describe('prerendered pages stay put while they hydrate', () => {
  for (const path of pages) {
    test(`${path} on a phone`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const watch = window as unknown as { layoutShift: number; sawFallback: boolean };
        watch.layoutShift = 0;
        watch.sawFallback = false;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput) watch.layoutShift += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        new MutationObserver(() => {
          if (document.querySelector('main .page-loading')) watch.sawFallback = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(path);
      // Hydrated once the Log in button is live; the remote page has replaced nothing by then or later. A recipient's
      // page hydrates the page alone (its layout stays the server's HTML, with no Log in), and says so.
      if (path.includes('enter-link')) {
        await expect(page.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
        await expect(page.locator('main').getByRole('alert')).toBeVisible();
      }
      // The home page starts its app on the visitor's first use; a mouse move is one, and no input that excuses a shift.
      else await startPublicPageApp(page);
      await page.waitForLoadState('networkidle');
      const watch = await page.evaluate(() => {
        const { layoutShift, sawFallback } = window as unknown as { layoutShift: number; sawFallback: boolean };
        return { layoutShift, sawFallback };
      });
      expect(watch.sawFallback).toBe(false);
      expect(watch.layoutShift).toBeLessThan(0.01);
      await context.close();
    });
  }
});
