import { test, expect } from '../support/fixtures';
import { markDocument, sameDocument, signInAsSubscriber, startPublicPageApp } from '../support/app-helpers';
import { signUpSubscriber } from '../support/subscriber';

test.describe('the host and its remotes', () => {
  test('the home route shows remote-search inside the host layout, in English and Indonesian', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('header .site-header__brand')).toHaveText('Kabari');
    await expect(page.locator('main [data-remote="search"] h1')).toContainText('with their consent');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('footer')).toContainText('always with consent');

    await page.goto('/id');
    await expect(page.locator('main [data-remote="search"] h1')).toContainText('dengan persetujuan mereka');
    await expect(page.locator('html')).toHaveAttribute('lang', 'id');
    await expect(page.locator('footer')).toContainText('selalu dengan persetujuan');
  });

  test('the language switch keeps the page and remembers the choice for a year', async ({ page, context }) => {
    await page.goto('/');
    // Hydrated (the Log in button works only then). Before that the link is a plain page load, which the server
    // answers by itself with the same page and cookie: the mark shows the app made this move.
    await startPublicPageApp(page);
    await markDocument(page);
    await page.getByRole('link', { name: /Bahasa Indonesia/ }).click();
    await expect(page).toHaveURL(/\/id\/?$/);
    await expect(page.locator('main h1')).toContainText('dengan persetujuan');
    expect(await sameDocument(page), 'switched on the client').toBe(true);
    const cookie = (await context.cookies()).find((c) => c.name === 'locale');
    expect(cookie?.value).toBe('id');
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  });

  test('React, antd and the session store exist once at run time', async ({ page, context, baseURL }) => {
    // Count React renderers: every copy of react-dom registers itself with the devtools hook.
    await page.addInitScript(() => {
      const renderers = new Map<number, unknown>();
      let id = 0;
      Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
        value: {
          renderers,
          supportsFiber: true,
          inject: (renderer: unknown) => {
            id += 1;
            renderers.set(id, renderer);
            return id;
          },
          onCommitFiberRoot: () => {},
          onCommitFiberUnmount: () => {},
          onPostCommitFiberRoot: () => {},
          checkDCE: () => {},
        },
      });
    });
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { displayName: 'Ana' }));
    await page.goto('/dashboard');
    // The remote reads the user the host's store holds.
    await expect(page.getByTestId('dashboard-user')).toHaveText('Signed in as Ana');

    // The host signs out through the shared store: the route guard, reading the same store, sends
    // the now anonymous visitor home, without a reload.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    // The login dialog is drawn with antd: antd is loaded by now, from the host.
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    const shareCounts = await page.evaluate(() => {
      type Version = { loaded?: boolean; loading?: unknown; from: string };
      const share = (
        window as unknown as {
          __FEDERATION__: { __SHARE__: Record<string, Record<string, Record<string, Record<string, Version>>>> };
        }
      ).__FEDERATION__.__SHARE__;
      // Scopes of several containers may point at the same provider: count distinct providers.
      const loadedFrom: Record<string, Set<string>> = {};
      for (const scopes of Object.values(share)) {
        for (const packages of Object.values(scopes)) {
          for (const [pkg, versions] of Object.entries(packages)) {
            for (const version of Object.values(versions)) {
              if (version.loaded) (loadedFrom[pkg] ??= new Set()).add(version.from);
            }
          }
        }
      }
      const renderers = (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: { renderers: Map<number, unknown> } })
        .__REACT_DEVTOOLS_GLOBAL_HOOK__.renderers.size;
      return {
        loadedFrom: Object.fromEntries(Object.entries(loadedFrom).map(([pkg, from]) => [pkg, [...from]])),
        renderers,
      };
    });
    expect(shareCounts.renderers).toBe(1);
    for (const pkg of [
      'react',
      'react-dom',
      'antd/es/config-provider',
      'antd/es/modal',
      '@kabari/shared/stores/session-store',
      '@kabari/shared/routing/router',
    ]) {
      expect(shareCounts.loadedFrom[pkg], pkg).toHaveLength(1);
    }
  });

  test('routes work with and without a trailing slash', async ({ page }) => {
    await page.goto('/enter-link/');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Invalid link!');
    await page.goto('/id/enter-link');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Tautan tidak valid!');
  });
});
