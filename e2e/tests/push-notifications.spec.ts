import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startPushService, type TestPushService } from '../../server/test/support/push-service';
import { axeViolations } from '../support/accessibility';
import { dialogOpened, signInAsSubscriber } from '../support/app-helpers';
import { chromiumArgs, requireDesktopChromium } from '../support/chromium';
import { test as base, expect } from '../support/fixtures';
import { startKabari, type KabariServer } from '../support/kabari-server';
import { signUpSubscriber } from '../support/subscriber';

// Notifications by Web Push, from the account tab to the notification on screen. The production server sends to a
// push service of the test's own (server/test/support/push-service.ts: HTTPS, the VAPID signature checked, the
// payload decrypted as a browser would), trusted through NODE_EXTRA_CA_CERTS. Headless Chromium has no push service
// of its own, so its PushManager answers with that service's subscription; the service worker, the permission, the
// page and the server are the real ones, and the message the server sent is delivered to the service worker through
// the DevTools protocol, as a push service would deliver it.
// The file's own push service, Kabari and browser, started in its hooks rather than as worker fixtures (a worker of
// its own, which Playwright keeps for the end of the run).
let pushService: TestPushService;
let ownKabari: KabariServer;
// The desktop browser, headless: the headless shell the other tests run in shows no notifications.
let desktop: Browser;

base.beforeAll(async () => {
  pushService = await startPushService();
  // The push service is on this machine: only PUSH_ALLOW_LOOPBACK (refused beside PUBLIC_URL) lets the server send
  // to it.
  ownKabari = await startKabari({ NODE_EXTRA_CA_CERTS: pushService.certificatePath, PUSH_ALLOW_LOOPBACK: 'true' });
  desktop = await chromium.launch({ executablePath: requireDesktopChromium(), args: chromiumArgs });
});

base.afterAll(async () => {
  await desktop?.close();
  await ownKabari?.stop();
  await pushService?.close();
});

const test = base.extend({
  // Also asked for the file's hooks, before the first of them has started the server.
  baseURL: async ({}, use) => {
    await use(ownKabari?.url);
  },
  context: async ({ baseURL }, use) => {
    const context = await desktop.newContext({ baseURL });
    await use(context);
    await context.close();
  },
});

/** The browser's PushManager answers with `subscription` (and forgets it when unsubscribed). */
async function useSubscription(context: BrowserContext, subscription: object): Promise<void> {
  await context.addInitScript((json) => {
    let current: object | null = null;
    const made = {
      endpoint: (json as { endpoint: string }).endpoint,
      expirationTime: null,
      toJSON: () => json,
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    PushManager.prototype.subscribe = async () => (current = made) as unknown as PushSubscription;
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
  }, subscription);
}

/** What the service worker shows now. */
function shownNotifications(page: Page) {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map(({ title, body, tag }) => ({
      title,
      body,
      tag,
    })),
  );
}

const texts = {
  en: {
    prefix: '',
    dialog: 'My subscription',
    tab: 'Account',
    region: 'Notices about your requests',
    off: 'Notifications are off in this browser.',
    turnOn: 'Turn on notifications in this browser',
    turnedOn: 'Notifications are on. Kabari will notify this browser as you chose below.',
    on: 'Notifications are on in this browser.',
    test: 'Send a test notification',
    testSent: 'A test notification is on its way to every browser where notifications are on (1).',
    notification: {
      title: 'Kabari notifications are on',
      body: 'This is how Kabari will tell you when a relative shares, declines or stops sharing.',
      tag: 'test',
    },
    turnOff: 'Turn off in this browser',
  },
  id: {
    prefix: '/id',
    dialog: 'Langganan Saya',
    tab: 'Akun',
    region: 'Pemberitahuan tentang permintaan Anda',
    off: 'Notifikasi tidak aktif di browser ini.',
    turnOn: 'Aktifkan notifikasi di browser ini',
    turnedOn: 'Notifikasi aktif. Kabari akan memberi tahu browser ini sesuai pilihan Anda di bawah.',
    on: 'Notifikasi aktif di browser ini.',
    test: 'Kirim notifikasi uji',
    testSent: 'Notifikasi uji sedang dikirim ke setiap browser yang notifikasinya aktif (1).',
    notification: {
      title: 'Notifikasi Kabari sudah aktif',
      body: 'Seperti inilah Kabari akan memberi tahu Anda saat kerabat membagikan lokasi, menolak, atau berhenti membagikan.',
      tag: 'test',
    },
    turnOff: 'Matikan di browser ini',
  },
} as const;

for (const [locale, t] of Object.entries(texts)) {
  test(`notifications turned on in the account tab; a test notification reaches the service worker (${locale})`, async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const subscriber = await signUpSubscriber(baseURL!, { locale: locale as 'en' | 'id' });
    await signInAsSubscriber(context, baseURL!, subscriber);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    const browserName = `e2e-${locale}`;
    await useSubscription(context, pushService.browser(browserName).subscription);

    await page.goto(`${t.prefix}/dashboard/modules/MySubscription`);
    const mine = await dialogOpened(page.getByRole('dialog', { name: t.dialog }));
    await mine.getByRole('tab', { name: t.tab }).click();
    const notices = mine.getByRole('region', { name: t.region });
    await expect(notices.getByText(t.off)).toBeVisible();
    await notices.getByRole('button', { name: t.turnOn }).click();
    await expect(notices.getByRole('status')).toHaveText(t.turnedOn);
    await expect(notices.getByText(t.on)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 780 });
    await notices.screenshot({ path: testInfo.outputPath(`notifications-on-360-${locale}.png`) });

    await notices.getByRole('button', { name: t.test }).click();
    await expect(notices.getByRole('status')).toHaveText(t.testSent);
    // The server's outbox sends it at once: signed with its VAPID key, encrypted for this browser.
    await expect.poll(() => pushService.received.filter((push) => push.browser === browserName).length).toBe(1);
    const sent = pushService.received.find((push) => push.browser === browserName)!;
    const { publicKey } = (await (await fetch(new URL('/api/v1/push/key', baseURL))).json()).data;
    expect(sent.vapid.publicKey).toBe(publicKey);
    // The dashboard on the site's configured address (PUBLIC_URL; here its local default, localhost).
    const port = new URL(baseURL!).port;
    expect(JSON.parse(sent.payload)).toEqual({
      ...t.notification,
      url: `http://localhost:${port}${t.prefix}/dashboard/`,
    });

    // Kabari is installable from the browser: its manifest parses, and Chromium finds nothing missing but a profile
    // of its own (a test's browser context is an incognito one, where nothing installs).
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name: 'Kabari', start_url: '/dashboard/' });
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito']);

    // Delivered to the page's own service worker, which shows it. DevTools' delivery is not acknowledged, and on a
    // busy machine Chromium has dropped one now and then (about 1 in 30 here) before the worker's push handler ran:
    // the worker was running, nothing was shown and its icon was never asked for, and the same message delivered
    // again was shown at once. A push service delivers again what the browser did not acknowledge; so does this
    // test, a few times at most. The notification's tag makes a second delivery replace it, never add another.
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((candidate) => candidate.scopeURL === `${baseURL}/` && !candidate.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    await expect(async () => {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: new URL(baseURL!).origin,
        registrationId,
        data: sent.payload,
      });
      await expect.poll(() => shownNotifications(page), { timeout: 3_000 }).toEqual([t.notification]);
    }).toPass({ timeout: 12_000 });

    await notices.getByRole('button', { name: t.turnOff }).click();
    await expect(notices.getByText(t.off)).toBeVisible();
  });
}
