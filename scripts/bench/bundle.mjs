// JavaScript each route loads before it is interactive, measured in the browser: every
// response of resource type "script" until the page's main heading is visible and the
// network has been quiet for a moment. Gzip sizes are computed here (zlib level 9 of the
// decoded body), so they do not depend on how the server encoded the response.
import zlib from 'node:zlib';
import path from 'node:path';
import { table, toKB } from './lib/format.mjs';
import { linkRoutes, recipientLinkUrls } from './lib/recipient-links.mjs';
import { loadSubscriberHelper, signIn } from './lib/subscriber.mjs';

export const name = 'bundle';
export const key = 'routes';
export const description =
  'JavaScript bytes (raw, gzip, transfer) loaded before / /enter-link (with and without a voice note) ' +
  '/location-failed /share /dashboard are interactive';

export const routes = ['/', ...Object.keys(linkRoutes), '/location-failed', '/share', '/dashboard'];
/**
 * What is loaded for the recipient's next pages: they take the link's token too; the bench's token is unknown to
 * the server, and each page shows what it shows for such a link. The consent page is measured on real links
 * (lib/recipient-links.mjs).
 * @type {Record<string, string>}
 */
export const routeUrls = {
  '/location-failed': '/location-failed?token=bench0000000000000000000000000000&reason=denied',
  '/share': '/share?token=bench0000000000000000000000000000',
};
/** Routes behind the guard, measured signed in as a real subscriber (else they redirect to /). */
const signedInRoutes = new Set(['/dashboard']);
/** The page counts as rendered once this is visible (every page's title sits in the host's <main>). */
export const readySelector = 'main h1';
/** The host's translated fallback for a remote that failed to load: a page showing it is not measured. */
export const fallbackSelector = '.remote-unavailable';
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
 * @property {string | null} signature chunk ids and first module id (see chunkSignature)
 * @property {string | null} licenseFile the .LICENSE.txt its banner points to
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
    const urls = { ...routeUrls, ...(await recipientLinkUrls(context)) };
    /** @type {Record<string, any>} */
    const results = {};
    for (const route of routes) {
      context.signal.throwIfAborted();
      let subscriber = null;
      if (signedInRoutes.has(route)) {
        const helper = await loadSubscriberHelper(context.repoRoot, path.join(context.reportsDir, 'lib'));
        subscriber = await helper.signUpSubscriber(context.baseUrl);
      }
      const first = await measureRoute(browser, context.baseUrl, route, urls[route] ?? route, subscriber);
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
 * @param {string} address the route's path and query
 * @param {{ token: string, user: { userCacheInfo: unknown } } | null} subscriber signed in as this subscriber
 */
async function measureRoute(browser, baseUrl, route, address, subscriber) {
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
  if (subscriber) await signIn(browserContext, baseUrl, subscriber);
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
      const status = (await request.response().catch(() => null))?.status() ?? 0;
      if (status >= 400 && measuring) failed.push(`${type} ${request.url()}: HTTP ${status}`);
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
        signature: chunkSignature(body.subarray(0, 2000).toString('latin1')),
        licenseFile:
          /For license information please see (\S+\.LICENSE\.txt)/.exec(
            body.subarray(0, 300).toString('latin1'),
          )?.[1] ?? null,
        gzip: zlib.gzipSync(body, { level: 9 }).length,
        transfer: sizes ? sizes.responseBodySize : null,
        encoding: (await response.headerValue('content-encoding')) ?? null,
        atMs,
      };
    })();
    (measuring ? pending : late).push(entry);
  });

  const url = baseUrl + address;
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
  const fallback = await page
    .locator(fallbackSelector)
    .count()
    .catch(() => 0);
  if (fallback > 0) {
    interactive = false;
    warnings.push(`the page shows the remote fallback (${fallbackSelector}): a remote failed to load`);
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

  const labels = await labelScripts(scripts, manifests);
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
    files: scripts.map((s) => ({
      url: shortUrl(s.url, baseUrl),
      contains: labels.get(s.url) ?? null,
      status: s.status,
      raw: s.raw,
      gzip: s.gzip,
      transfer: s.transfer,
      encoding: s.encoding,
      atMs: s.atMs,
    })),
    warnings,
  };
}

/**
 * What each script holds, read from the federation manifests the page fetched: a remote's
 * shared packages, exposed modules and remoteEntry by file name. A host chunk is matched to a
 * remote's file with the same chunk id *and* the same first module id (both are deterministic
 * hashes of module paths in the one webpack factory, so equal pairs mean the same package
 * build) — hence the "≈".
 * @param {ScriptEntry[]} scripts
 * @param {Array<{ url: string, manifest: any }>} manifests
 * @returns {Promise<Map<string, string | null>>} script URL → label
 */
export async function labelScripts(scripts, manifests) {
  /** @type {Map<string, Set<string>>} file URL → what it holds */
  const known = new Map();
  for (const { url: manifestUrl, manifest } of manifests) {
    const dir = new URL('.', manifestUrl).href;
    const app = manifest?.metaData?.name ?? manifest?.name ?? '?';
    const add = (/** @type {string} */ file, /** @type {string} */ label) => {
      const url = new URL(file, dir).href;
      (known.get(url) ?? known.set(url, new Set()).get(url))?.add(label);
    };
    for (const shared of manifest?.shared ?? []) {
      for (const file of [...(shared.assets?.js?.sync ?? []), ...(shared.assets?.js?.async ?? [])])
        add(file, shared.name);
    }
    for (const expose of manifest?.exposes ?? []) {
      // Only its own chunk: the async ones are dependencies it may load (a fallback copy of a package, …).
      for (const file of expose.assets?.js?.sync ?? []) add(file, `${app} ${expose.path ?? expose.name}`);
    }
    const entry = manifest?.metaData?.remoteEntry;
    if (entry?.name) {
      add((entry.path ? `${entry.path}/` : '') + entry.name, `${app} remoteEntry (federation runtime + share scope)`);
    }
  }
  /** @type {Map<string, string | null>} */
  const signatures = new Map();
  const signatureOfUrl = async (/** @type {string} */ url) => {
    if (!signatures.has(url)) {
      const body = await fetch(url)
        .then((r) => (r.ok ? r.text() : ''))
        .catch(() => '');
      signatures.set(url, chunkSignature(body));
    }
    return signatures.get(url) ?? null;
  };
  /** @type {Map<string, string | null>} */
  const labels = new Map();
  for (const script of scripts) {
    const exact = known.get(script.url);
    if (exact) {
      labels.set(script.url, [...exact].join(' + '));
      continue;
    }
    const id = chunkId(script.url);
    /** @type {Set<string>} */
    const guessed = new Set();
    if (id && script.signature) {
      for (const [url, label] of known) {
        if (chunkId(url) === id && (await signatureOfUrl(url)) === script.signature)
          label.forEach((l) => guessed.add(l));
      }
    }
    if (guessed.size) labels.set(script.url, `≈ ${[...guessed].join(' + ')}`);
    else if (/\/main\.[0-9a-f]+\.js$/.test(new URL(script.url).pathname)) labels.set(script.url, 'app entry (main)');
    else
      labels.set(
        script.url,
        script.licenseFile ? await licensedPackages(new URL(script.licenseFile, script.url).href) : null,
      );
  }
  return labels;
}

/**
 * The packages named in a chunk's extracted licence comments (e.g. "react-router v7.18.5"),
 * as a last resort for chunks no manifest names; null if none.
 * @param {string} url the .LICENSE.txt file
 */
async function licensedPackages(url) {
  const text = await fetch(url)
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  /** @type {Set<string>} */
  const names = new Set();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*(\/\*+|\*+\/?)\s*/, '').trim();
    const versioned = /^(@?[\w.-]+(?:\/[\w.-]+)?) v\d+\.\d+/.exec(line);
    const production = /^([\w.-]+)\.production(?:\.min)?\.js$/.exec(line);
    if (versioned) names.add(versioned[1]);
    else if (production) names.add(production[1]);
  }
  return names.size ? `licence comments: ${[...names].join(', ')}` : null;
}

/**
 * A webpack chunk's ids and first module id, e.g. "470|8131" from
 * `(self.webpackChunkkabari_host=…).push([[470],{8131(e,n,t){…`; null for other scripts.
 * @param {string} source
 */
export function chunkSignature(source) {
  const match = /\.push\(\[\[([\d,]+)\],\{\s*"?(\d+)"?\s*[:(]/.exec(source.slice(0, 2000));
  return match ? `${match[1]}|${match[2]}` : null;
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
        ['gzip KB', 'raw KB', 'url', 'holds (see bench/README.md)'],
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
  if (budget.metric === 'gzipBytesOverPlainLink') {
    const [plain, withNote] = Object.keys(linkRoutes).map((route) => results[route]);
    if (!plain?.interactive || !withNote?.interactive) return null;
    return withNote.gzipBytes - plain.gzipBytes;
  }
  const r = results[budget.route];
  if (!r || !r.interactive) return null;
  return r[budget.metric] ?? null;
}
