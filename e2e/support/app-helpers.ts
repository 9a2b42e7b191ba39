import { expect, type BrowserContext, type Locator, type Page, type Route } from '@playwright/test';

/**
 * Signs the browser in the way a sign-in leaves it: the server's HttpOnly `token` cookie and, optionally, the
 * stored user (what tells the app someone is signed in). Without a token the cookie holds a placeholder the server
 * does not know (for specs that play the API back).
 */
export async function signInWithCookie(
  context: BrowserContext,
  baseURL: string,
  user?: { displayName: string; email: string },
  token = 'e2e-token',
): Promise<void> {
  await context.addCookies([{ name: 'token', value: token, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
  if (user) {
    await context.addInitScript((cached) => {
      localStorage.setItem('kabari-user', JSON.stringify({ state: { user: { userCacheInfo: cached } }, version: 0 }));
    }, user);
  }
}

/** Signs the browser in as a real subscriber from signUpSubscriber (e2e/support/subscriber.ts). */
export async function signInAsSubscriber(
  context: BrowserContext,
  baseURL: string,
  subscriber: { token: string; user: { userCacheInfo: { displayName: string; email: string } } },
): Promise<void> {
  await signInWithCookie(context, baseURL, subscriber.user.userCacheInfo, subscriber.token);
}

/** The API's envelope, as the server answers. */
export function envelope(status: number, data: unknown, message = status < 400 ? 'ok' : 'Error') {
  return { status, contentType: 'application/json', body: JSON.stringify({ status, message, data }) };
}

/** Answers a route with a fixed envelope, counting the calls. */
export async function answer(
  page: Page,
  url: string | RegExp,
  reply: (call: number, route: Route) => ReturnType<typeof envelope>,
): Promise<{ calls: () => number }> {
  let calls = 0;
  await page.route(url, async (route) => {
    calls += 1;
    await route.fulfill(reply(calls, route));
  });
  return { calls: () => calls };
}

/** The toasts of the global toast area (antd message). */
export const toasts = (page: Page) => page.locator('.ant-message-notice');

/**
 * Records the text of every toast each document of the page shows from now on; returns a reader of the current
 * document's. A toast goes by itself after a few seconds, so finding none on the page passes once it has gone: a
 * test that says none appeared reads this record instead.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { kabariToasts: string[] }).kabariToasts = shown;
    // A toast can be reported twice: inside its newly added list, and then on its own.
    const seen = new WeakSet<Element>();
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (!(node instanceof Element)) continue;
          const notices = node.matches('.ant-message-notice') ? [node] : node.querySelectorAll('.ant-message-notice');
          for (const notice of notices) {
            if (seen.has(notice)) continue;
            seen.add(notice);
            shown.push(notice.textContent ?? '');
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { kabariToasts?: string[] }).kabariToasts ?? []);
}

export const subscriptionInfoUrl = '**/api/v1/personnal/subscribe/info';

/** The header's Log in: a link to `#log-in` until the app has started (the public pages start it on first use), then a button. */
export const headerLogIn = (page: Page, name = 'Log in') =>
  page
    .locator('header')
    .getByRole('button', { name, exact: true })
    .or(page.locator('header').getByRole('link', { name, exact: true }));

/**
 * Waits until an antd dialog has finished opening, and returns it. It opens in steps: first at its final place but
 * transparent, held there for a frame or more, then growing from a fifth of its size towards the last click.
 * Playwright counts a transparent element as visible and a held one as stable, so it may press a button in the first
 * step and release it in the second, once the dialog has shrunk away from the pointer: the release lands beside the
 * button and nothing is clicked. A person cannot see the button then. Shown whole, the dialog's opacity is 1.
 */
export async function dialogOpened(dialog: Locator): Promise<Locator> {
  await expect(dialog).toHaveCSS('opacity', '1');
  return dialog;
}

/**
 * Opens the login dialog from the header of the page already open. Returns once the dialog has finished opening
 * (dialogOpened), with the cursor in the email field.
 */
export async function openLoginFromHeader(page: Page, name = 'Log in') {
  await headerLogIn(page, name).click();
  const dialog = await dialogOpened(page.getByRole('dialog', { name }));
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox').first()).toBeFocused();
  return dialog;
}

/**
 * Starts the app on a public page the way a visitor's first use does (a mouse move: it changes nothing on the page)
 * and returns once it has hydrated (the header's Log in is a live button then).
 */
export async function startPublicPageApp(page: Page, logIn: string | RegExp = /^(Log in|Masuk)$/) {
  // Two moves: the first in a new document can report no movement, which the page does not count as use.
  await page.mouse.move(1, 1);
  await page.mouse.move(8, 8);
  await expect(page.locator('header').getByRole('button', { name: logIn })).toBeVisible();
}

/**
 * Waits until React has hydrated the page's main heading (it owns the element then). A prerendered page's heading
 * is there from the server's HTML: seeing it says nothing about hydration, and a mismatch is reported only once
 * the page's own remote has loaded and hydrated it, after the layout.
 */
export async function pageHydrated(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page
        .locator('main h1')
        .first()
        .evaluate((heading) => Object.keys(heading).some((key) => key.startsWith('__react'))),
    )
    .toBe(true);
}

/**
 * Marks the document in the page, so that sameDocument can tell a move the app made on the client from a new page
 * load: a plain link, or the server's own answer to it, would land on the same address with the same heading.
 */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { kabariMarked?: boolean }).kabariMarked = true));
}

/** Whether the document markDocument marked is still the page's. */
export function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { kabariMarked?: boolean }).kabariMarked === true);
}

/**
 * Chooses a message in a number's facts dialog, once it has finished opening; the message step opens. A number
 * looked up before is answered from the server's cache, so its Choose a message is enabled while the dialog is still
 * in its first, transparent step (dialogOpened): three whole runs in about fifty lost that click.
 */
export async function chooseMessageInFacts(facts: Locator, message: Locator, label: string): Promise<void> {
  await dialogOpened(facts);
  await facts.getByRole('button', { name: label }).click();
  await expect(message).toBeVisible();
}
