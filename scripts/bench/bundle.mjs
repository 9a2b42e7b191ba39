// JavaScript each route loads before it is interactive, measured in the browser: every
// response of resource type "script" until the page's main heading is visible and the
// network has been quiet for a moment. Gzip sizes are computed here (zlib level 9 of the
// decoded body), so they do not depend on how the server encoded the response.
import zlib from 'node:zlib';
import { table, toKB } from './lib/format.mjs';

export const name = 'bundle';
export const key = 'routes';
export const description =
  'JavaScript bytes (raw, gzip, transfer) loaded before / /enter-link /dashboard are interactive';

export const routes = ['/', '/enter-link', '/dashboard'];
/** The page counts as rendered once this is visible (every page's title sits in the host's <main>). */
export const readySelector = 'main h1';
/** Network counted as idle after this long with no request in flight. */
const quietMs = 500;
const viewport = { width: 412, height: 823 };

/**
 * @typedef {object} ScriptEntry
 * @property {string} url
 * @property {number} status
 * @property {number} raw decoded bytes
 * @property {number} gzip bytes after zlib gzip level 9
 * @property {number | null} transfer encoded body bytes as received (null if the browser did not say)
 * @property {string | null} encoding content-encoding the server used
 * @property {number} atMs when it finished, from the start of the navigation
 */

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: context.chrome.path,
    headless: true,
    // Playwright gives every launch a fresh --user-data-dir of its own (and refuses one in args).
    args: context.chrome.flags,
    // bench.mjs handles the signals (it closes this browser and stops the server).
    handleSIGINT: false,
    handleSIGTERM: false,
  });
  const unregister = context.onCleanup(() => browser.close());
  try {
    /** @type {Record<string, any>} */
    const results = {};
    for (const route of routes) {
      context.signal.throwIfAborted();
      const first = await measureRoute(browser, context.baseUrl, route);
      results[route] = first;
      context.log(
        `bundle ${route}: ${first.scripts} scripts, ${toKB(first.rawBytes)} KB raw, ${toKB(first.gzipBytes)} KB gzip` +
          (first.interactive ? '' : ` (NOT interactive: ${first.warnings.join('; ')})`),
      );
    }
    return results;
  } finally {
    unregister();
    await browser.close();
  }
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} baseUrl
 * @param {string} route
 */
async function measureRoute(browser, baseUrl, route) {
  // A fresh context per route: empty cache, as a first visit from a phone.
  const browserContext = await browser.newContext({
    viewport,
    screen: viewport,
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    serviceWorkers: 'block',
  });
  const page = await browserContext.newPage();
  /** @type {string[]} */
  const warnings = [];
  /** @type {Set<import('playwright-core').Request>} */
  const inFlight = new Set();
  let lastActivity = Date.now();
  /** @type {Promise<ScriptEntry | null>[]} */
  const pending = [];
  /** @type {Promise<ScriptEntry | null>[]} */
  const late = [];
  /** @type {Record<string, { count: number, transfer: number }>} */
  const byType = {};
  /** @type {string[]} */
  const failed = [];
  /** @type {Array<{ url: string, manifest: any }>} */
  const manifests = [];
  let measuring = true;
  let started = Date.now();

  page.on('request', (request) => {
    inFlight.add(request);
    lastActivity = Date.now();
  });
  page.on('requestfailed', (request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
    failed.push(`${request.resourceType()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('requestfinished', (request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
    const atMs = Date.now() - started;
    const type = request.resourceType();
    const entry = (async () => {
      const sizes = await request.sizes().catch(() => null);
      if (measuring) {
        const bucket = (byType[type] ??= { count: 0, transfer: 0 });
        bucket.count += 1;
        bucket.transfer += sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0;
      }
      if (type !== 'script') {
        if (/mf-manifest\.json(\?|$)/.test(request.url())) {
          const manifest = await request
            .response()
            .then((r) => r?.json())
            .catch(() => null);
          if (manifest) manifests.push({ url: request.url(), manifest });
        }
        return null;
      }
      const response = await request.response();
      if (!response) return null;
      const body = await response.body().catch(() => null);
      if (!body) return null;
      return {
        url: request.url(),
        status: response.status(),
        raw: body.length,
        gzip: zlib.gzipSync(body, { level: 9 }).length,
        transfer: sizes ? sizes.responseBodySize : null,
        encoding: (await response.headerValue('content-encoding')) ?? null,
        atMs,
      };
    })();
    (measuring ? pending : late).push(entry);
  });

  const url = baseUrl + route;
  started = Date.now();
  let readyMs = null;
  let interactive = true;
  let heading = null;
  let status = null;
  try {
    const response = await page.goto(url, { waitUntil: 'load', timeout: 45_000 });
    status = response?.status() ?? null;
    const title = page.locator(readySelector).first();
    await title.waitFor({ state: 'visible', timeout: 30_000 });
    readyMs = Date.now() - started;
    heading = (await title.textContent())?.trim() ?? null;
  } catch (error) {
    interactive = false;
    warnings.push(`${readySelector} not visible: ${/** @type {Error} */ (error).message.split('\n')[0]}`);
  }
  // Network idle: nothing in flight for quietMs (at most 15 s more).
  const quietDeadline = Date.now() + 15_000;
  while (Date.now() < quietDeadline && (inFlight.size > 0 || Date.now() - lastActivity < quietMs)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (inFlight.size > 0) warnings.push(`network not idle after 15 s: ${[...inFlight].map((r) => r.url()).join(', ')}`);
  measuring = false;
  const idleMs = Date.now() - started;
  const scripts = /** @type {ScriptEntry[]} */ ((await Promise.all(pending)).filter(Boolean)).sort(
    (a, b) => b.gzip - a.gzip,
  );
  const finalUrl = page.url();
  const lateScripts = /** @type {ScriptEntry[]} */ ((await Promise.all(late)).filter(Boolean));
  if (lateScripts.length) warnings.push(`${lateScripts.length} script(s) loaded after the page was idle (not counted)`);
  if (failed.length) warnings.push(`failed requests: ${failed.join('; ')}`);
  await browserContext.close();

  const sum = (/** @type {(s: ScriptEntry) => number | null} */ pick) =>
    scripts.reduce((total, s) => total + (pick(s) ?? 0), 0);
  return {
    url,
    finalUrl,
    status,
    interactive,
    heading,
    readyMs,
    idleMs,
    scripts: scripts.length,
    rawBytes: sum((s) => s.raw),
    gzipBytes: sum((s) => s.gzip),
    transferBytes: scripts.every((s) => s.transfer !== null) ? sum((s) => s.transfer) : null,
    rawKB: toKB(sum((s) => s.raw)),
    gzipKB: toKB(sum((s) => s.gzip)),
    transferKB: scripts.every((s) => s.transfer !== null) ? toKB(sum((s) => s.transfer)) : null,
    requestsByType: byType,
    files: scripts.map((s) => ({ ...s, url: shortUrl(s.url, baseUrl), contains: labelScript(s.url, manifests) })),
    warnings,
  };
}

/**
 * What a script holds, read from the federation manifests the page fetched: a remote's shared
 * packages, exposed modules and remoteEntry by file name; the host's chunks by chunk id (the
 * one webpack factory gives every app deterministic chunk ids, so the host's 470.<hash>.js holds
 * what a remote's 470.<hash>.js holds — hence the "≈").
 * @param {string} url
 * @param {Array<{ url: string, manifest: any }>} manifests
 * @returns {string | null}
 */
export function labelScript(url, manifests) {
  /** @type {Map<string, Set<string>>} by exact URL */
  const exact = new Map();
  /** @type {Map<string, Set<string>>} by chunk id */
  const byId = new Map();
  const add = (/** @type {string} */ fileUrl, /** @type {string} */ label) => {
    (exact.get(fileUrl) ?? exact.set(fileUrl, new Set()).get(fileUrl))?.add(label);
    const id = chunkId(fileUrl);
    if (id) (byId.get(id) ?? byId.set(id, new Set()).get(id))?.add(label);
  };
  for (const { url: manifestUrl, manifest } of manifests) {
    const dir = new URL('.', manifestUrl).href;
    const app = manifest?.metaData?.name ?? manifest?.name ?? '?';
    for (const shared of manifest?.shared ?? []) {
      for (const file of [...(shared.assets?.js?.sync ?? []), ...(shared.assets?.js?.async ?? [])])
        add(dir + file, shared.name);
    }
    for (const expose of manifest?.exposes ?? []) {
      for (const file of [...(expose.assets?.js?.sync ?? []), ...(expose.assets?.js?.async ?? [])])
        add(dir + file, `${app} ${expose.path ?? expose.name}`);
    }
    const entry = manifest?.metaData?.remoteEntry;
    if (entry?.name)
      add(
        dir + (entry.path ? `${entry.path}/` : '') + entry.name,
        `${app} remoteEntry (federation runtime + share scope)`,
      );
  }
  const found = exact.get(url);
  if (found) return [...found].join(' + ');
  const id = chunkId(url);
  const guessed = id ? byId.get(id) : undefined;
  if (guessed) return `≈ ${[...guessed].join(' + ')}`;
  if (/\/main\.[0-9a-f]+\.js$/.test(new URL(url).pathname)) return 'app entry (main)';
  return null;
}

/** @param {string} url */
function chunkId(url) {
  return /\/(\d+)\.[0-9a-f]+\.js$/.exec(new URL(url).pathname)?.[1] ?? null;
}

/** @param {string} url @param {string} baseUrl */
function shortUrl(url, baseUrl) {
  return url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
}

/** @param {Record<string, any>} results */
export function format(results) {
  const rows = Object.entries(results).map(([route, r]) => [
    route,
    r.scripts,
    r.rawKB.toFixed(1),
    r.gzipKB.toFixed(1),
    r.transferKB === null ? null : r.transferKB.toFixed(1),
    r.readyMs,
    r.interactive ? (r.heading ?? '') : 'NOT INTERACTIVE',
  ]);
  const lines = [
    'JavaScript loaded before interactive (KB = 1000 bytes; gzip = zlib level 9 of each decoded script)',
    table(['route', 'scripts', 'raw KB', 'gzip KB', 'transfer KB', 'ready ms', `${readySelector}`], rows),
  ];
  for (const [route, r] of Object.entries(results)) {
    if (r.finalUrl && new URL(r.finalUrl).pathname !== new URL(r.url).pathname)
      lines.push(`  ${route}: ended at ${r.finalUrl}`);
    for (const warning of r.warnings) lines.push(`  ${route}: ${warning}`);
  }
  for (const [route, r] of Object.entries(results)) {
    lines.push('', `Top scripts by gzip size on ${route}`);
    lines.push(
      table(
        ['gzip KB', 'raw KB', 'url', 'holds (from the federation manifests)'],
        r.files
          .slice(0, 10)
          .map((/** @type {ScriptEntry & { contains: string | null }} */ s) => [
            toKB(s.gzip).toFixed(1),
            toKB(s.raw).toFixed(1),
            s.url,
            s.contains,
          ]),
      ),
    );
  }
  return lines.join('\n');
}

/**
 * @param {Record<string, any>} results
 * @param {import('./budgets.mjs').Budget} budget
 */
export function measure(results, budget) {
  const r = results[budget.route];
  if (!r || !r.interactive) return null;
  return r[budget.metric] ?? null;
}
