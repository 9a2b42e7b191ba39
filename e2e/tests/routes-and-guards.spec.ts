import type { Page } from '@playwright/test';
import { testFromOwnAddress as test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { dialogOpened, signInAsSubscriber, startPublicPageApp } from '../support/app-helpers';
import { signUpSubscriber } from '../support/subscriber';

// Each test loads one page of the running app and reaches the others the way the app does: the browser's history
// moves and the router follows (the same guards run as on a full page load). A prerendered public page starts the
// app only on the visitor's first use, so a history move there changes the address and nothing else: the tests
// start the app first. The recipient's pages are documents of their own, without the app's router (the app loads
// them anew when a move crosses into them): they are opened directly, as from a message. Each test's browser has an
// address of its own (fixtures.ts), so the server's 600 API requests a minute per address hold for each alone.
async function visit(page: Page, url: string, first: boolean): Promise<void> {
  if (first) {
    await page.goto(url);
    return;
  }
  await page.evaluate((next) => {
    window.history.pushState(null, '', next);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every public route, in English and under /id, with and without a trailing slash.
const publicRoutes = [
  '/',
  '/200',
  '/404',
  '/about-us',
  '/contact-us',
  '/privacy-policy',
  '/terms-of-use',
  '/faqs',
  '/tracking-phone-number',
  '/unsubscribe-and-refund',
  '/cookies-policy',
  '/intellectual-property',
  '/register',
];
// The recipient's pages: a consent link works for whoever received it, so nobody is sent away from them
// even a signed-in one, whom every other public route sends to the dashboard (see docs/product-decisions.md).
const recipientRoutes = ['/enter-link', '/location-failed', '/share'];
const protectedRoutes = [
  '/dashboard',
  '/dashboard/modules/SuccessModal',
  '/dashboard/modules/MySubscription',
  '/dashboard/modules/subscriptionExpiredModal',
  '/dashboard/modules/cancleMySubscriptionModal',
];

/** Each route as English and Indonesian, with and without the trailing slash. */
function variants(path: string): Array<{ url: string; id: boolean }> {
  if (path === '/') {
    return [
      { url: '/', id: false },
      { url: '/id', id: true },
      { url: '/id/', id: true },
    ];
  }
  return [
    { url: path, id: false },
    { url: `${path}/`, id: false },
    { url: `/id${path}`, id: true },
    { url: `/id${path}/`, id: true },
  ];
}

const pathOf = (url: string) => new URL(url).pathname;
const mainHeading = (page: Page) => page.locator('main h1').first();

/** Each recipient's page, opened directly in every variant, is served as it is: nobody is sent away from it. */
async function expectRecipientPagesServed(page: Page): Promise<void> {
  for (const route of recipientRoutes) {
    for (const { url } of variants(route)) {
      await page.goto(url);
      await expect(page.locator('main [data-remote="share"] h1'), url).toBeVisible();
      expect(pathOf(page.url()), url).toBe(url);
    }
  }
}

/** Every variant of the routes, ordered so that no route comes twice in a row. */
function inTurn(routes: string[]): string[] {
  const lists = routes.map((route) => variants(route).map(({ url }) => url));
  const longest = Math.max(...lists.map((list) => list.length));
  return Array.from({ length: longest }, (_, index) => lists.flatMap((list) => list[index] ?? [])).flat();
}

test.describe('routes and guards', () => {
  test('an anonymous visitor stays on every public route', async ({ page }) => {
    await page.goto('/faqs');
    await startPublicPageApp(page);
    // Each move goes to another page than the last, so that its heading shows the router has rendered it: the
    // address alone would read the same had nothing followed the move.
    let heading = await mainHeading(page).textContent();
    for (const url of inTurn(publicRoutes)) {
      await visit(page, url, false);
      await expect(mainHeading(page), url).not.toHaveText(heading ?? '');
      heading = await mainHeading(page).textContent();
      expect(pathOf(page.url()), url).toBe(url);
    }
    await expectRecipientPagesServed(page);
  });

  test('a signed-in user: public routes lead to the dashboard, protected and modal routes open, recipient pages stay', async ({
    page,
    context,
    baseURL,
  }) => {
    // Four tests' worth of steps for one subscriber and one start of the app: twice the usual limit.
    test.setTimeout(120_000);
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!));
    // A public page: the server sends a signed-in visitor on to the dashboard, where the app runs.
    await page.goto('/');
    await expect(page.locator('main [data-remote="dashboard"] h1')).toHaveText('Dashboard');

    await test.step('on any public route, lands on the dashboard, in the same language', async () => {
      for (const route of publicRoutes) {
        for (const { url, id } of variants(route)) {
          await visit(page, url, false);
          await expect(page, url).toHaveURL(id ? /\/id\/dashboard\/$/ : /127\.0\.0\.1:\d+\/dashboard\/$/);
          await expect(page.locator('main [data-remote="dashboard"] h1')).toHaveText(id ? 'Dasbor' : 'Dashboard');
        }
      }
    });

    await test.step('reaches every protected route; a modal route shows the dashboard', async () => {
      for (const route of protectedRoutes) {
        for (const { url, id } of variants(route)) {
          await visit(page, url, false);
          await expect(page.locator('main [data-remote="dashboard"] h1')).toHaveText(id ? 'Dasbor' : 'Dashboard');
          expect(pathOf(page.url()), url).toBe(url);
        }
      }
    });

    await test.step('each modal route opens its own dialog over the dashboard; the header leads to My subscription', async () => {
      const dialogs = [
        { path: '/dashboard/modules/SuccessModal', en: 'Welcome to Kabari', id: 'Selamat datang di Kabari' },
        { path: '/dashboard/modules/MySubscription', en: 'My subscription', id: 'Langganan Saya' },
        {
          path: '/dashboard/modules/subscriptionExpiredModal',
          en: 'Your subscription has expired',
          id: 'Langganan Anda sudah berakhir',
        },
        {
          path: '/dashboard/modules/cancleMySubscriptionModal',
          en: 'Cancel your subscription?',
          id: 'Batalkan langganan Anda?',
        },
      ];
      for (const [index, dialog] of dialogs.entries()) {
        const id = index % 2 === 1;
        const url = id ? `/id${dialog.path}` : dialog.path;
        await visit(page, url, false);
        const title = id ? dialog.id : dialog.en;
        await expect(page.getByRole('dialog', { name: title }), url).toBeVisible();
        // Only its own dialog.
        await expect(page.getByRole('dialog')).toHaveCount(1);
        await expect(page.locator('main [data-remote="dashboard"] h1')).toHaveText(id ? 'Dasbor' : 'Dashboard');
        // axe, dialog and dashboard behind it (the dashboard's tabs once took antd's default blue, 3.8:1).
        expect(await axeViolations(page), url).toEqual([]);
      }

      for (const { start, name } of [
        { start: '/dashboard', name: 'My subscription' },
        { start: '/id/dashboard', name: 'Langganan Saya' },
      ]) {
        await page.goto(start);
        await page.locator('header').getByRole('link', { name }).click();
        await expect(page).toHaveURL(new RegExp(`${start}/modules/MySubscription$`));
        await expect(page.getByRole('dialog', { name })).toBeVisible();
      }
    });

    await test.step('stays on the recipient’s pages', async () => {
      await expectRecipientPagesServed(page);
    });
  });

  test('an anonymous visitor on a protected route lands on the home page, in the same language, remembering it', async ({
    page,
  }) => {
    let first = true;
    for (const route of protectedRoutes) {
      for (const { url, id } of variants(route)) {
        await visit(page, url, first);
        first = false;
        // The dashboard alone is not named: signing in leads there anyway.
        const home = id ? '/id/' : '/';
        const next = route === '/dashboard' ? '' : `?next=${encodeURIComponent(url)}`;
        await expect(page, url).toHaveURL(new RegExp(`127\\.0\\.0\\.1:\\d+${escapeRegExp(home + next)}$`));
        await expect(page.locator('main [data-remote="search"] h1').first()).toBeVisible();
      }
    }
  });

  test('signed out, a protected page asks for signing in and goes back to it afterwards, never elsewhere', async ({
    page,
    baseURL,
  }) => {
    const subscriber = await signUpSubscriber(baseURL!, { locale: 'id' });
    await page.goto('/id/dashboard/modules/MySubscription');
    await expect(page).toHaveURL(/\/id\/\?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription$/);
    const login = await dialogOpened(page.getByRole('dialog', { name: 'Masuk' }));
    expect(await axeViolations(page), 'the login asked for on the way to a protected page').toEqual([]);
    await login.getByLabel('Email').fill(subscriber.email);
    await login.getByLabel('Kata sandi').fill(subscriber.password);
    await login.getByRole('button', { name: 'Masuk' }).click();
    await expect(page).toHaveURL(/\/id\/dashboard\/modules\/MySubscription$/);
    await expect(page.getByRole('dialog', { name: 'Langganan Saya' })).toBeVisible();

    // An address that names another site to return to is ignored: signed in, it leads to the dashboard.
    await page.goto('/?next=%2F%2Fevil.example%2Fdashboard');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard\/$/);
  });

  test('a page opened directly is guarded before anything else shows', async ({ page, context, baseURL }) => {
    // Full page loads: a prerendered public page, and a protected one, each in one language.
    await page.goto('/id/dashboard/modules/MySubscription/');
    await expect(page).toHaveURL(/\/id\/\?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription%2F$/);
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!));
    await page.goto('/about-us');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard\/$/);
    await page.goto('/id/faqs/');
    await expect(page).toHaveURL(/\/id\/dashboard\/$/);
  });

  test('any other path shows the error page in the language of its path, signed in or not', async ({
    page,
    context,
    baseURL,
  }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.locator('.error-page__code')).toHaveText('404');
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!));
    await page.goto('/id/tidak-ada/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Halaman Tidak Ditemukan');
    expect(await axeViolations(page), 'the error page, signed in').toEqual([]);
    expect(pathOf(page.url())).toBe('/id/tidak-ada/');
  });

  test('a new page opens at the top', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 500 });
    await page.goto('/');
    await startPublicPageApp(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Bahasa Indonesia' }).click();
    await expect(page).toHaveURL(/\/id\/?$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
