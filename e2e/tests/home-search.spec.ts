import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { callingCodes } from '../../shared/src/requests/calling-codes';

// The home page's number search before its app has started (it starts on the visitor's first use): the country list
// is whole, its default is the visitor's, and what is chosen, typed and pressed meanwhile is kept for the app.

/** The app has not started: its entry script was never added to the page. */
async function appNotStarted(page: Page): Promise<void> {
  expect(await page.locator('script[src*="/main."]').count()).toBe(0);
  await expect(page.locator('header').getByRole('link', { name: /^(Log in|Masuk)$/ })).toBeVisible();
}

/** Holds the app's entry script back until released, as a slow phone would take seconds to fetch and run it. */
async function holdAppEntry(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/main.*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const countryCount = Object.keys(callingCodes).length;

test.describe('the home page search before its app has started', () => {
  test('/id/: every country listed, Indonesia chosen, Find ready, all before any use of the page', async ({ page }) => {
    await page.goto('/id/');
    await page.waitForLoadState('networkidle');
    const country = page.getByLabel('Kode negara');
    await expect(country.locator('option')).toHaveCount(countryCount);
    await expect(country).toHaveValue('ID');
    await expect(country.locator('option:checked')).toHaveText('Indonesia (+62)');
    await expect(country.locator('option[value="GB"]')).toHaveText('Inggris Raya (+44)');
    await expect(page.getByRole('button', { name: 'Cari' })).toBeEnabled();
    expect(await axeViolations(page)).toEqual([]);
    await appNotStarted(page);
  });

  test("/: the visitor's country from their address is chosen by the server, else the United States", async ({
    browser,
    baseURL,
  }) => {
    // The suite's server believes X-Forwarded-For from this machine, as from its proxy; 81.2.69.160 is in London
    // for the bundled database.
    const fromLondon = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': '81.2.69.160' } });
    const page = await fromLondon.newPage();
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const country = page.getByLabel('Country code');
    await expect(country).toHaveValue('GB');
    await expect(country.locator('option')).toHaveCount(countryCount);
    await appNotStarted(page);
    await fromLondon.close();

    // From this machine the database knows no country: the default stays.
    const local = await browser.newPage({ baseURL });
    await local.goto('/');
    await expect(local.getByLabel('Country code')).toHaveValue('US');
    await local.close();
  });

  test('a country chosen, a number typed and Find pressed before the app runs: the search runs once it does', async ({
    page,
  }) => {
    const releaseApp = await holdAppEntry(page);
    await page.goto('/');
    const find = page.getByRole('button', { name: 'Find' });
    // Turned on by the page's first script (the entry held here is fetched in the background, so the network
    // never goes quiet).
    await expect(find).toBeEnabled();
    await expect(page.getByLabel('Country code')).toHaveValue('US');
    await page.getByLabel('Country code').selectOption('ID');
    await page.getByLabel('Mobile number').fill('812 3456 7890');
    await find.click();
    // Held by the page's first script, which shows it is at work; the app is still on its way.
    const form = page.locator('form.number-search');
    await expect(form).toHaveAttribute('data-submit-pending', '');
    await expect(form).toHaveAttribute('aria-busy', 'true');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('header').getByRole('link', { name: 'Log in' })).toBeVisible();
    expect(await axeViolations(page), 'the held search').toEqual([]);

    releaseApp();
    // An Indonesian number: found only if the country chosen before the start was kept.
    await expect(page.getByRole('dialog', { name: 'About this number' })).toBeVisible();
    await expect(page.getByLabel('Country code')).toHaveValue('ID');
    await expect(page.getByLabel('Mobile number')).toHaveValue('812 3456 7890');
    await expect(form).not.toHaveAttribute('data-submit-pending');
    await expect(form).not.toHaveAttribute('aria-busy');
  });

  for (const { path, sentence, find } of [
    {
      path: '/',
      sentence: 'This search needs JavaScript. Turn on JavaScript in your browser to search for a number.',
      find: 'Find',
    },
    {
      path: '/id/',
      sentence: 'Pencarian ini memerlukan JavaScript. Aktifkan JavaScript di peramban Anda untuk mencari nomor.',
      find: 'Cari',
    },
  ]) {
    test(`${path} without JavaScript: the form says the search needs it, and Find stays off`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
      const page = await context.newPage();
      await page.goto(path);
      // Read through its element: Playwright's text search leaves <noscript> out, JavaScript or not.
      const noScript = page.locator('form.number-search .number-search__no-script');
      await expect(noScript).toBeVisible();
      await expect(noScript).toHaveText(sentence);
      await expect(page.getByRole('button', { name: find })).toBeDisabled();
      await context.close();
    });
  }
});
