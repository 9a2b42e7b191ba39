import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { openLoginFromHeader, pageHydrated, startPublicPageApp } from '../support/app-helpers';
import { rootFontSize } from '../../shared/src/ui/root-font-size';

const widths = [320, 360, 390, 412, 750, 980, 981, 1280, 1600];

/** The page's computed root font size at each width equals the rule's. */
async function expectRuleAtEveryWidth(page: Page, what: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(size, `${what}, ${width}px wide`).toBeCloseTo(rootFontSize(width), 1);
  }
}

test.describe('the root font size', () => {
  test('follows the rule at every width, before any script runs and after the page’s own scripts have', async ({
    browser,
    baseURL,
  }) => {
    const withoutScripts = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const plain = await withoutScripts.newPage();
    await plain.goto('/id/enter-link');
    await expectRuleAtEveryWidth(plain, 'a recipient page, JavaScript off');
    await withoutScripts.close();

    const withScripts = await browser.newContext({ baseURL });
    const page = await withScripts.newPage();
    // A recipient page once its light remote has hydrated it...
    await page.goto('/id/enter-link');
    await expect(page.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
    await expectRuleAtEveryWidth(page, 'a recipient page, hydrated');
    // ...and a public page once the whole app has started on it and opened a dialog (antd, which loads with the
    // first dialog, and its global styles).
    await page.goto('/id/faqs');
    await startPublicPageApp(page);
    await pageHydrated(page);
    await openLoginFromHeader(page, 'Masuk');
    await expect(page.locator('style[data-css-hash], style[data-token-hash]').first()).toBeAttached();
    await expectRuleAtEveryWidth(page, 'a public page, the app started and its login dialog open');
    await withScripts.close();
  });
});
