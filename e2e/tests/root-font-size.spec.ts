import { test, expect } from '../support/fixtures';
import { rootFontSize } from '../../shared/src/ui/root-font-size';

const widths = [320, 360, 390, 412, 750, 980, 981, 1280, 1600];

test.describe('the root font size', () => {
  test('follows the rule at every width, before any script runs and after', async ({ browser, baseURL }) => {
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ baseURL, javaScriptEnabled });
      const page = await context.newPage();
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        if (width === widths[0]) await page.goto('/id/enter-link');
        const size = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
        expect(size, `${width}px wide, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`).toBeCloseTo(
          rootFontSize(width),
          1,
        );
      }
      await context.close();
    }
  });
});
