import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { strongEtag } from '../lib/etag';

export const PAGE_HEAD_MARKER = '<!--kabari-page-head-->';
export const PAGE_MARKER = '<!--kabari-page-->';

export interface StitchedPage {
  html: string;
  etag: string;
  /** false when the host's plain index.html was served (no prerendered route, or something was missing). */
  prerendered: boolean;
}

export interface PrerenderStitcherOptions {
  /** `<WEB_ROOT>/host/dist` */
  hostDist: string;
  /** Remote name → `<WEB_ROOT>/remote-<name>/dist`, in the order their routes are looked up. */
  remoteDists: Record<string, string>;
  /**
   * The site's public address (PUBLIC_URL): root-relative canonical and hreflang links in a page's head are made
   * absolute with it, as search engines expect.
   */
  publicUrl?: string;
  /** Reports why a prerendered page fell back to index.html (a broken deployment, worth a log line). */
  onFallback?: (reason: string, error?: unknown) => void;
  maxCachedPages?: number;
}

interface RouteFiles {
  html: string;
  head: string;
  /** The page asks to be listed in the sitemap (it has a title of its own and is indexable). */
  sitemap: boolean;
}

interface FileVersion {
  /** Changes whenever the file is rewritten or replaced: mtime, size and inode together. */
  version: string;
}

interface CachedRoutes extends FileVersion {
  routes: Map<string, RouteFiles>;
}

interface CachedText extends FileVersion {
  text: string;
}

interface CachedRedirects extends FileVersion {
  redirects: Map<string, string>;
}

/** Path of a page request as the route tables spell it: no query, no trailing slash except for "/". */
export function normalizePagePath(url: string): string {
  let pathname = url.split(/[?#]/, 1)[0] ?? '/';
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // A malformed escape is left as written; it simply matches no route.
  }
  pathname = pathname.replace(/\/{2,}/g, '/');
  if (!pathname.startsWith('/')) pathname = `/${pathname}`;
  if (pathname.length > 1) pathname = pathname.replace(/\/+$/, '');
  return pathname === '' ? '/' : pathname;
}

/** File name of a page path, as scripts/prerender.mjs writes it: "/" → "index", "/id/faqs" → "id__faqs". */
export function pageSlug(pagePath: string): string {
  return pagePath === '/' ? 'index' : pagePath.replace(/^\//, '').replace(/\//g, '__');
}

function fileVersion(stats: { mtimeMs: number; size: number; ino: number }): string {
  return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

const TITLE = /<title[\s>][\s\S]*?<\/title>/i;
const DESCRIPTION = /<meta\s[^>]*name=["']?description["']?[^>]*>/i;

/**
 * The shell carries the host's default <title> and description (for pages that set none). A page head that has its
 * own replaces them, so the document ends with exactly one of each.
 */
export function withoutShadowedDefaults(shell: string, pageHead: string): string {
  const headEnd = shell.search(/<\/head>/i);
  if (headEnd === -1) return shell;
  let head = shell.slice(0, headEnd);
  if (TITLE.test(pageHead)) head = head.replace(TITLE, '');
  if (DESCRIPTION.test(pageHead)) head = head.replace(DESCRIPTION, '');
  return head + shell.slice(headEnd);
}

/** `<link rel="canonical|alternate" href="/path">` → `href="https://site/path"`. */
export function absoluteHeadLinks(pageHead: string, publicUrl: string | undefined): string {
  if (!publicUrl) return pageHead;
  const origin = publicUrl.replace(/\/+$/, '');
  return pageHead.replace(/<link\s[^>]*>/gi, (tag) =>
    /\brel=["']?(canonical|alternate)\b/i.test(tag)
      ? tag.replace(/\bhref="(\/(?!\/)[^"]*)"/i, `href="${origin}$1"`)
      : tag,
  );
}

function replaceMarker(document: string, marker: string, content: string): string {
  const at = document.indexOf(marker);
  if (at === -1) throw new Error(`the shell has no ${marker} marker`);
  return document.slice(0, at) + content + document.slice(at + marker.length);
}

/**
 * Serves page HTML: the host's shell for the path with a remote's prerendered fragments stitched in, or the host's
 * index.html. Each remote's routes.json is re-read when it changes on disk, so a remote redeployed alone is
 * picked up without restarting the server.
 */
export class PrerenderStitcher {
  private readonly hostDist: string;
  private readonly remoteDists: [string, string][];
  private readonly onFallback: (reason: string, error?: unknown) => void;
  private readonly publicUrl: string | undefined;
  private readonly maxCachedPages: number;
  private readonly routesCache = new Map<string, CachedRoutes>();
  private readonly textCache = new Map<string, CachedText>();
  private readonly pageCache = new Map<string, StitchedPage>();
  private redirectsCache: CachedRedirects | null = null;

  constructor(options: PrerenderStitcherOptions) {
    this.hostDist = options.hostDist;
    this.remoteDists = Object.entries(options.remoteDists);
    this.onFallback = options.onFallback ?? (() => undefined);
    this.publicUrl = options.publicUrl;
    this.maxCachedPages = options.maxCachedPages ?? 500;
  }

  /** The HTML for a page URL, or null when not even the host's index.html exists. */
  async render(url: string): Promise<StitchedPage | null> {
    const pagePath = normalizePagePath(url);
    try {
      const stitched = await this.stitch(pagePath);
      if (stitched) return stitched;
    } catch (error) {
      this.onFallback(`prerendered page ${pagePath} could not be stitched`, error);
    }
    return this.indexHtml();
  }

  /**
   * A page a remote renders per request (the recipient's pages, for their link): the shell and head of its
   * prerendered version, with `html` in place of the prerendered fragment and `headExtra` after the page's head.
   * Null when the page is not prerendered (then `render` serves index.html).
   */
  async renderWith(url: string, html: string, headExtra: string): Promise<StitchedPage | null> {
    const pagePath = normalizePagePath(url);
    const found = await this.findRoute(pagePath);
    if (!found) return null;
    const shellFile = path.join(this.hostDist, 'prerender', 'shells', `${pageSlug(pagePath)}.html`);
    const [shell, head] = await Promise.all([this.readText(shellFile), this.readText(found.headFile)]);
    const pageHead = absoluteHeadLinks(head.text, this.publicUrl) + headExtra;
    const document = replaceMarker(
      replaceMarker(withoutShadowedDefaults(shell.text, pageHead), PAGE_HEAD_MARKER, pageHead),
      PAGE_MARKER,
      html,
    );
    return { html: document, etag: strongEtag(document), prerendered: true };
  }

  /**
   * Where a signed-in user is sent from this page, or null: the host's build lists its visitor-only pages with
   * the dashboard its guard sends them to (prerender/signed-in-redirects.json). Re-read when a new host build
   * replaces it; no file (an older build) means no redirects.
   */
  async signedInRedirect(url: string): Promise<string | null> {
    const file = path.join(this.hostDist, 'prerender', 'signed-in-redirects.json');
    let version: string;
    try {
      version = fileVersion(await stat(file));
    } catch {
      this.redirectsCache = null;
      return null;
    }
    if (this.redirectsCache?.version !== version) {
      const redirects = new Map<string, string>();
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as { redirects?: Record<string, unknown> };
        for (const [page, target] of Object.entries(parsed.redirects ?? {})) {
          // Only a path of this site: a broken file must not send anyone elsewhere.
          if (typeof target === 'string' && /^\/(?!\/)/.test(target)) redirects.set(normalizePagePath(page), target);
        }
      } catch (error) {
        this.onFallback('signed-in-redirects.json of the host is unreadable', error);
      }
      this.redirectsCache = { version, redirects };
    }
    return this.redirectsCache.redirects.get(normalizePagePath(url)) ?? null;
  }

  private async stitch(pagePath: string): Promise<StitchedPage | null> {
    const found = await this.findRoute(pagePath);
    if (!found) return null;
    // The host's layout around the page, prerendered for this very path (its language switch and
    // links depend on the path). A path the host has no shell for is not one of its routes.
    const shellFile = path.join(this.hostDist, 'prerender', 'shells', `${pageSlug(pagePath)}.html`);
    const [shell, html, head] = await Promise.all([
      this.readText(shellFile),
      this.readText(found.htmlFile),
      this.readText(found.headFile),
    ]);
    const key = [pagePath, shell.version, found.routesVersion, html.version, head.version].join('|');
    const cached = this.pageCache.get(key);
    if (cached) return cached;

    const pageHead = absoluteHeadLinks(head.text, this.publicUrl);
    const document = replaceMarker(
      replaceMarker(withoutShadowedDefaults(shell.text, pageHead), PAGE_HEAD_MARKER, pageHead),
      PAGE_MARKER,
      html.text,
    );
    const page: StitchedPage = { html: document, etag: strongEtag(document), prerendered: true };
    this.remember(key, page);
    return page;
  }

  /**
   * The page paths every remote's routes.json marks for the sitemap, English and /id alike, each once. Only pages the
   * host also has a shell for (its own routes) are listed: anything else would not be served prerendered.
   */
  async sitemapPaths(): Promise<string[]> {
    const paths = new Set<string>();
    for (const [name, dist] of this.remoteDists) {
      const routes = await this.readRoutes(name, path.join(dist, 'prerender', 'routes.json'));
      for (const [pagePath, files] of routes?.routes ?? []) {
        if (!files.sitemap || paths.has(pagePath)) continue;
        try {
          await stat(path.join(this.hostDist, 'prerender', 'shells', `${pageSlug(pagePath)}.html`));
          paths.add(pagePath);
        } catch {
          // Not one of the host's routes (yet): leave it out.
        }
      }
    }
    return [...paths];
  }

  private async findRoute(
    pagePath: string,
  ): Promise<{ htmlFile: string; headFile: string; routesVersion: string } | null> {
    for (const [name, dist] of this.remoteDists) {
      const prerenderDir = path.join(dist, 'prerender');
      const routes = await this.readRoutes(name, path.join(prerenderDir, 'routes.json'));
      const files = routes?.routes.get(pagePath);
      if (!routes || !files) continue;
      return {
        htmlFile: insideFolder(prerenderDir, files.html),
        headFile: insideFolder(prerenderDir, files.head),
        routesVersion: `${name}:${routes.version}`,
      };
    }
    return null;
  }

  private async readRoutes(remote: string, file: string): Promise<CachedRoutes | null> {
    let stats;
    try {
      stats = await stat(file);
    } catch {
      // No prerendered routes in this remote's build: nothing to stitch, not an error.
      this.routesCache.delete(file);
      return null;
    }
    const version = fileVersion(stats);
    const cached = this.routesCache.get(file);
    if (cached?.version === version) return cached;
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { routes?: Record<string, Partial<RouteFiles>> };
      const routes = new Map<string, RouteFiles>();
      for (const [route, files] of Object.entries(parsed.routes ?? {})) {
        if (typeof files?.html === 'string' && typeof files.head === 'string') {
          routes.set(normalizePagePath(route), { html: files.html, head: files.head, sitemap: files.sitemap === true });
        }
      }
      const entry = { version, routes };
      this.routesCache.set(file, entry);
      return entry;
    } catch (error) {
      this.onFallback(`routes.json of remote ${remote} is unreadable`, error);
      this.routesCache.delete(file);
      return null;
    }
  }

  private async indexHtml(): Promise<StitchedPage | null> {
    const file = path.join(this.hostDist, 'index.html');
    let index: CachedText;
    try {
      index = await this.readText(file);
    } catch {
      return null;
    }
    const key = `index|${index.version}`;
    const cached = this.pageCache.get(key);
    if (cached) return cached;
    const page: StitchedPage = { html: index.text, etag: strongEtag(index.text), prerendered: false };
    this.remember(key, page);
    return page;
  }

  private async readText(file: string): Promise<CachedText> {
    const stats = await stat(file);
    const version = fileVersion(stats);
    const cached = this.textCache.get(file);
    if (cached?.version === version) return cached;
    const entry = { version, text: await readFile(file, 'utf8') };
    this.textCache.set(file, entry);
    return entry;
  }

  private remember(key: string, page: StitchedPage): void {
    // Old versions of a page are never asked for again; drop the oldest entries first.
    while (this.pageCache.size >= this.maxCachedPages) {
      const oldest = this.pageCache.keys().next().value;
      if (oldest === undefined) break;
      this.pageCache.delete(oldest);
    }
    this.pageCache.set(key, page);
  }
}

/** A fragment named in routes.json must stay inside that prerender folder. */
function insideFolder(folder: string, relative: string): string {
  const resolved = path.resolve(folder, relative);
  if (!resolved.startsWith(folder + path.sep)) throw new Error(`fragment ${relative} points outside ${folder}`);
  return resolved;
}
