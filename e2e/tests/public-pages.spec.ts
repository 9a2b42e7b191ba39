// Every public page in English and Indonesian, prerendered with its own head, hydrated
// cleanly, in the right language only, accessible, linked; robots.txt and sitemap.xml; the contact form.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ConsoleMessage, Page } from '@playwright/test';
import { axeViolations } from '../support/accessibility';
import { markDocument, pageHydrated, sameDocument, startPublicPageApp } from '../support/app-helpers';
import { test, expect } from '../support/fixtures';
import { repoRoot, startKabari } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';

type Texts = Record<string, unknown>;
const i18nDir = path.join(repoRoot, 'remote-search/src/i18n');
// Every namespace of remote-search by its name ("search", "search-privacy", …), in each language.
function readTexts(locale: string): Record<string, Texts> {
  const files = fs.readdirSync(i18nDir).filter((file) => file.endsWith(`.${locale}.json`));
  return Object.fromEntries(
    files.map((file) => [
      file.slice(0, -`.${locale}.json`.length),
      JSON.parse(fs.readFileSync(path.join(i18nDir, file), 'utf8')),
    ]),
  );
}
const texts = { en: readTexts('en'), id: readTexts('id') };
type Locale = keyof typeof texts;
type Namespace = string;

function at(namespace: Namespace, key: string, locale: Locale): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Texts)?.[part], texts[locale][namespace]);
  if (typeof value !== 'string') throw new Error(`no text ${namespace}:${key} in ${locale}`);
  return value;
}

/** Each public page: its English path, its <title> (meta key) and its main heading, from the texts themselves. */
const pages: { path: string; meta: string; heading: [Namespace, string] }[] = [
  { path: '/', meta: 'home', heading: ['search', 'home.title'] },
  { path: '/about-us', meta: 'aboutUs', heading: ['search-about-us', 'title'] },
  { path: '/faqs', meta: 'faqs', heading: ['search', 'faqs.title'] },
  { path: '/tracking-phone-number', meta: 'trackingPhoneNumber', heading: ['search-tracking', 'title'] },
  { path: '/privacy-policy', meta: 'privacyPolicy', heading: ['search-privacy', 'title'] },
  { path: '/terms-of-use', meta: 'termsOfUse', heading: ['search-terms', 'title'] },
  { path: '/cookies-policy', meta: 'cookiesPolicy', heading: ['search-cookies', 'title'] },
  { path: '/intellectual-property', meta: 'intellectualProperty', heading: ['search-intellectual-property', 'title'] },
  {
    path: '/unsubscribe-and-refund',
    meta: 'unsubscribeAndRefund',
    heading: ['search-unsubscribe-and-refund', 'title'],
  },
  { path: '/contact-us', meta: 'contactUs', heading: ['search-contact-us', 'title'] },
  { path: '/200', meta: 'ok', heading: ['search', 'statusPages.ok.title'] },
  { path: '/404', meta: 'notFound', heading: ['search', 'statusPages.notFound.title'] },
];

// As shared/src/seo/page-head.ts writes attribute values.
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const localized = (englishPath: string, locale: Locale) =>
  locale === 'en' ? englishPath : englishPath === '/' ? '/id/' : `/id${englishPath}`;

/** A few things each language must say, written out here rather than read from the texts. */
const knownStrings: Record<string, Partial<Record<Locale, string[]>>> = {
  '/privacy-policy': {
    en: ['Law No. 27 of 2022', 'within 3 × 24 hours', 'Positions: 30 days after they were shared'],
    id: ['Undang-Undang Nomor 27 Tahun 2022', 'paling lambat 3 × 24 jam', 'Posisi: 30 hari sejak dibagikan'],
  },
  '/terms-of-use': {
    en: ['You must be 18 or older', 'track, or try to track, anyone without their consent'],
    id: ['Anda harus berusia minimal 18 tahun', 'melacak, atau mencoba melacak, siapa pun tanpa persetujuannya'],
  },
  '/cookies-policy': {
    en: ['G_P_L_Visitor_Id', 'FB_G_P_L_Visitor_Id', 'kabari-user', '365 days'],
    id: ['G_P_L_Visitor_Id', 'FB_G_P_L_Visitor_Id', 'kabari-user', '365 hari'],
  },
  '/intellectual-property': {
    en: ['IP Geolocation by DB-IP', 'OpenStreetMap contributors'],
    id: ['IP Geolocation by DB-IP', 'kontributor OpenStreetMap'],
  },
  '/tracking-phone-number': {
    en: ['does not use cell-tower triangulation'],
    id: ['tidak memakai triangulasi menara BTS'],
  },
  '/unsubscribe-and-refund': {
    en: ['Cancel and ask for a refund', 'Send me a code'],
    id: ['Batalkan langganan dan minta pengembalian dana', 'Kirim kode'],
  },
};

/** The sentences of every text of a language, markup removed: a page in the other language must contain none. */
function sentencesOf(locale: Locale): Set<string> {
  const sentences = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') {
      for (const line of node.split('\n')) {
        const plain = line
          .replace(/^- /, '')
          .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
          .replace(/\{\{\w+\}\}/g, '')
          .trim();
        if (plain.length >= 20) sentences.add(plain.replace(/\s+/g, ' '));
      }
    } else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  Object.values(texts[locale]).forEach(walk);
  return sentences;
}
const english = sentencesOf('en');
const indonesian = sentencesOf('id');
const onlyIn = {
  en: [...english].filter((s) => !indonesian.has(s)),
  id: [...indonesian].filter((s) => !english.has(s)),
};

/** Texts that look like an i18n key ("contactUs.form.name"): what a missing translation shows. */
async function keyLikeTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent?.trim() ?? '';
      if (/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(text)) found.push(text);
    }
    return found;
  });
}

/** What the page reports about hydration from now on; `stop` ends the watch. */
function watchHydration(page: Page): { problems: string[]; stop: () => void } {
  const problems: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (/hydrat|did not match|mismatch/i.test(message.text())) problems.push(message.text());
  };
  const onPageError = (error: Error) => problems.push(String(error));
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return {
    problems,
    stop: () => {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
    },
  };
}

test.describe('public pages', () => {
  // One browser page loads every public page in turn, each a new document, as a visitor reading them one after
  // another would: a new browser context for each took about a third more of the machine (its scripts compiled
  // afresh each time), for the same checks.
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext({ baseURL: process.env.KABARI_BASE_URL })).newPage();
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  for (const { path: englishPath, meta, heading } of pages) {
    for (const locale of ['en', 'id'] as const) {
      const pagePath = localized(englishPath, locale);

      test(`${pagePath}: own head, main heading, only ${locale}, accessible`, async ({ request }) => {
        const title = at('search', `meta.${meta}.title`, locale);
        const mainHeading = at(heading[0], heading[1], locale);

        // The prerendered document: one <title> and one description, the page's own; hreflang alternates.
        const html = await (await request.get(pagePath, { headers: { accept: 'text/html' } })).text();
        expect(html).toContain(`<html lang="${locale}"`);
        expect(html.match(/<title>[^<]*<\/title>/g)).toEqual([`<title>${escapeHtml(title)}</title>`]);
        expect(html.match(/<meta name="description"/g)).toHaveLength(1);
        expect(html).toContain(
          `<meta name="description" content="${escapeHtml(at('search', `meta.${meta}.description`, locale))}">`,
        );
        for (const [hreflang, href] of [
          ['en', englishPath],
          ['id', localized(englishPath, 'id')],
          ['x-default', englishPath],
        ]) {
          expect(html).toMatch(new RegExp(`<link rel="alternate" hreflang="${hreflang}" href="https?://[^/]+${href}"`));
        }
        expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^/]+${pagePath}"`));
        expect(html).toContain(mainHeading);
        if (englishPath === '/200' || englishPath === '/404')
          expect(html).toContain('<meta name="robots" content="noindex">');

        // In the browser: the same title and heading; then, once the visitor's first move has started the app,
        // hydrated without a mismatch (the page starts it on first use, so loading it alone hydrates nothing).
        // (A failed test ends its worker, and the page with it: the watch never outlives its test.)
        const { problems, stop } = watchHydration(page);
        await page.goto(pagePath);
        await expect(page.locator('main h1')).toHaveText(mainHeading);
        await expect(page).toHaveTitle(title);
        await startPublicPageApp(page);
        await pageHydrated(page);
        await expect(page.locator('main h1')).toHaveText(mainHeading);
        await expect(page.locator('main h1')).toHaveCount(1);
        await expect(page).toHaveTitle(title);
        stop();
        expect(problems).toEqual([]);

        // No untranslated key, no sentence of the other language; the known strings of this one.
        expect(await keyLikeTexts(page)).toEqual([]);
        const mainText = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
        const other = locale === 'en' ? 'id' : 'en';
        expect(onlyIn[other].filter((sentence) => mainText.includes(sentence))).toEqual([]);
        for (const known of knownStrings[englishPath]?.[locale] ?? []) expect(mainText).toContain(known);

        // axe: no violation of any impact on the whole page.
        expect(await axeViolations(page)).toEqual([]);
      });
    }
  }

  test('every internal link on the public pages leads to a page, and every anchor to its section', async ({
    request,
  }) => {
    // Read from the served HTML, which the hydration check above holds equal to what the browser shows: some 50
    // page loads in a browser took a minute and a half of a two-core run for the same links.
    const documentOf = async (pagePath: string) => {
      const response = await request.get(pagePath, { headers: { accept: 'text/html' } });
      expect(response.status(), pagePath).toBe(200);
      return response.text();
    };
    const decode = (value: string) => value.replaceAll('&amp;', '&');
    const links = new Set<string>();
    for (const { path: englishPath } of pages) {
      for (const locale of ['en', 'id'] as const) {
        const pagePath = localized(englishPath, locale);
        const html = await documentOf(pagePath);
        const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => decode(match[1] as string)));
        for (const [, href] of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
          const target = decode(href as string);
          if (target.startsWith('#')) expect(ids.has(target.slice(1)), `${pagePath} ${target}`).toBe(true);
          else if (target.startsWith('/')) links.add(target.split('#', 1)[0] as string);
        }
      }
    }
    expect(links.size).toBeGreaterThanOrEqual(24);
    for (const link of links) {
      const html = await documentOf(link);
      expect(html, link).toMatch(/<main[\s>][\s\S]*<h1[\s>]/);
      expect(html, link).not.toMatch(/class="[^"]*\b(error-page|remote-unavailable)\b/);
    }
  });

  test('client-side navigation keeps the title and the language alternates in step', async ({ page }) => {
    await page.goto('/about-us');
    await expect(page).toHaveTitle('About us | Kabari');
    // The app started and the page hydrated, the moves below are its own: a plain link would load a prerendered page
    // with the same head.
    await startPublicPageApp(page);
    await pageHydrated(page);
    await markDocument(page);
    await page
      .getByRole('navigation', { name: 'More about Kabari' })
      .getByRole('link', { name: 'Privacy policy' })
      .click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page).toHaveTitle('Privacy policy | Kabari');
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /\/privacy-policy$/);
    await expect(page.locator('head link[rel="alternate"][hreflang="id"]')).toHaveAttribute(
      'href',
      /\/id\/privacy-policy$/,
    );
    await expect(page.locator('head title')).toHaveCount(1);
    expect(await sameDocument(page), 'moved on the client').toBe(true);

    await page.locator('.language-switch').click();
    await expect(page).toHaveURL(/\/id\/privacy-policy$/);
    await expect(page).toHaveTitle('Kebijakan privasi | Kabari');
    await expect(page.locator('head meta[name="description"]')).toHaveAttribute('content', /UU PDP/);
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /\/id\/privacy-policy$/);
    expect(await sameDocument(page), 'switched on the client').toBe(true);

    // The choice is remembered (the locale cookie): the bare address now opens in Indonesian, other paths as asked.
    await page.goto('/');
    await expect(page).toHaveURL(/\/id\/$/);
    await page.goto('/about-us');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('robots.txt disallows the protected routes and names the sitemap, which lists every public page with alternates', async ({
    request,
  }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.status()).toBe(200);
    const lines = (await robots.text()).split('\n');
    expect(lines).toEqual(expect.arrayContaining(['User-agent: *', 'Disallow: /dashboard', 'Disallow: /id/dashboard']));
    const sitemapLine = lines.find((line) => line.startsWith('Sitemap: '));
    expect(sitemapLine).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap\.xml$/);

    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
    expect(sitemap.headers()['content-type']).toContain('application/xml');
    const xml = await sitemap.text();
    const locs = [...xml.matchAll(/<loc>https?:\/\/[^/]+([^<]*)<\/loc>/g)].map((match) => match[1]);
    const indexable = pages.filter((p) => p.path !== '/200' && p.path !== '/404');
    expect(locs.sort()).toEqual(indexable.flatMap((p) => [localized(p.path, 'en'), localized(p.path, 'id')]).sort());
    expect(xml.match(/<xhtml:link rel="alternate" hreflang="x-default"/g)).toHaveLength(locs.length);
    expect(xml).not.toContain('/dashboard');
  });
});

test.describe('the contact form', () => {
  test.describe.configure({ timeout: 120_000 });

  test('is sent, stored, emailed to the operator through the outbox, and throttled', async ({ browser }) => {
    const kabari = await startKabari({ DEV_OUTBOX: 'true', OPERATOR_EMAIL: 'support@kabari.test' });
    try {
      const context = await browser.newContext({ baseURL: kabari.url });
      const page = await context.newPage();
      await page.goto('/id/contact-us');
      await startPublicPageApp(page);
      await expect(page.getByRole('button', { name: 'Kirim pesan' })).toBeEnabled();

      // Nothing is sent while the form is wrong.
      const apiCalls: string[] = [];
      page.on('request', (req) => {
        if (req.url().includes('/api/v1/contact/')) apiCalls.push(req.url());
      });
      await page.getByRole('button', { name: 'Kirim pesan' }).click();
      await expect(page.locator('main').getByRole('alert')).toHaveText(
        'Periksa kembali kolom yang ditandai di bawah ini.',
      );
      await expect(page.getByLabel('Nama Anda')).toBeFocused();
      expect(apiCalls).toEqual([]);

      await page.getByLabel('Nama Anda').fill('Dewi Lestari');
      await page.getByLabel('Alamat email Anda').fill('dewi@example.com');
      await page.getByLabel('Topik').selectOption({ label: 'Tagihan, pembatalan, atau pengembalian dana' });
      await page.getByLabel('Pesan Anda').fill('Saya ingin membatalkan langganan dan meminta pengembalian dana.');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      const confirmation = page.getByRole('heading', { name: 'Terima kasih, pesan Anda sudah terkirim' });
      await expect(confirmation).toBeFocused();
      await expect(page.getByText('Kami akan membalas ke dewi@example.com.')).toBeVisible();

      // Emailed to the operator through the outbox, replies going to the visitor.
      const messages = await outboxMessages(kabari.url, 'support@kabari.test');
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        subject: 'Contact form: Billing, cancelling or a refund (Dewi Lestari)',
        replyTo: 'dewi@example.com',
      });
      expect(messages[0]?.bodyText).toContain('Saya ingin membatalkan langganan');

      // Throttled: 10 messages an hour from one address. Nine more, then the form says so.
      for (let sent = 2; sent <= 10; sent += 1) {
        const response = await context.request.post('/api/v1/contact/messages', {
          data: {
            name: `Visitor ${sent}`,
            email: 'v@example.com',
            topic: 'question',
            message: 'A question about Kabari.',
          },
        });
        expect(response.status()).toBe(200);
      }
      await page.getByRole('button', { name: 'Tulis pesan lain' }).click();
      await page.getByLabel('Nama Anda').fill('Dewi Lestari');
      await page.getByLabel('Alamat email Anda').fill('dewi@example.com');
      await page.getByLabel('Topik').selectOption('question');
      await page.getByLabel('Pesan Anda').fill('Satu pertanyaan lagi tentang Kabari.');
      await page.getByRole('button', { name: 'Kirim pesan' }).click();
      await expect(page.locator('main').getByRole('alert')).toHaveText(
        'Anda sudah mengirim beberapa pesan dalam waktu singkat. Silakan coba lagi satu jam lagi.',
      );
      await expect(page.getByLabel('Pesan Anda')).toHaveValue('Satu pertanyaan lagi tentang Kabari.');
      await context.close();
    } finally {
      await kabari.stop({ keepData: true });
    }

    // Stored: read the server's own database once it has stopped.
    try {
      const { PGlite } = createRequire(path.join(repoRoot, 'server/package.json'))('@electric-sql/pglite') as {
        PGlite: new (dir: string) => { query<T>(sql: string): Promise<{ rows: T[] }>; close(): Promise<void> };
      };
      const db = new PGlite(path.join(kabari.dataDir, 'pglite'));
      const { rows } = await db.query<{ name: string; email: string; topic: string; locale: string }>(
        'select name, email, topic, locale from contact_messages order by created_at',
      );
      await db.close();
      expect(rows).toHaveLength(10);
      expect(rows[0]).toEqual({ name: 'Dewi Lestari', email: 'dewi@example.com', topic: 'billing', locale: 'id' });
    } finally {
      fs.rmSync(kabari.dataDir, { recursive: true, force: true });
    }
  });
});
