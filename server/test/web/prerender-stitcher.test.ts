import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  absoluteHeadLinks,
  normalizePagePath,
  pageSlug,
  PrerenderStitcher,
  withoutShadowedDefaults,
} from '../../src/web/prerender-stitcher';
import { copyWebFixture } from '../support/web-fixture';

function stitcherFor(webRoot: string, onFallback = jest.fn(), publicUrl?: string) {
  return new PrerenderStitcher({
    publicUrl,
    hostDist: path.join(webRoot, 'host', 'dist'),
    remoteDists: {
      search: path.join(webRoot, 'remote-search', 'dist'),
      dashboard: path.join(webRoot, 'remote-dashboard', 'dist'),
      billing: path.join(webRoot, 'remote-billing', 'dist'),
      share: path.join(webRoot, 'remote-share', 'dist'),
    },
    onFallback,
  });
}

// Moves a file's mtime forward, as a redeploy does, without waiting for the clock.
function touchLater(file: string, seconds: number): void {
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(file, when, when);
}

describe('normalizePagePath and pageSlug', () => {
  it.each([
    ['/', '/'],
    ['/enter-link/', '/enter-link'],
    ['/enter-link?code=abc', '/enter-link'],
    ['/id/', '/id'],
    ['/id/enter-link///', '/id/enter-link'],
    ['//about-us', '/about-us'],
    ['/caf%C3%A9', '/café'],
    ['/bad%E0%A4%A', '/bad%E0%A4%A'],
  ])('normalizes %s to %s', (url, expected) => {
    expect(normalizePagePath(url)).toBe(expected);
  });

  it('names the shell file of a path as the prerender script writes it', () => {
    expect(pageSlug('/')).toBe('index');
    expect(pageSlug('/id')).toBe('id');
    expect(pageSlug('/id/enter-link')).toBe('id__enter-link');
    expect(pageSlug('/enter-link')).toBe('enter-link');
  });
});

describe('head helpers', () => {
  it('drops only the defaults the page head replaces, and only from the <head>', () => {
    const shell =
      '<html><head><meta name="description" content="d"><title>T</title><!--x--></head>' +
      '<body><title>svg title</title></body></html>';
    expect(withoutShadowedDefaults(shell, '<title>Page</title>')).toBe(
      '<html><head><meta name="description" content="d"><!--x--></head><body><title>svg title</title></body></html>',
    );
    expect(withoutShadowedDefaults(shell, '<meta name="description" content="p">')).toBe(
      '<html><head><title>T</title><!--x--></head><body><title>svg title</title></body></html>',
    );
    expect(withoutShadowedDefaults(shell, '<style></style>')).toBe(shell);
  });

  it('makes only root-relative canonical and alternate links absolute', () => {
    const head =
      '<link rel="canonical" href="/faqs"><link rel="alternate" hreflang="id" href="/id/faqs">' +
      '<link rel="icon" href="/icon.svg"><link rel="alternate" hreflang="en" href="https://cdn.example/faqs">' +
      '<link rel="canonical" href="//evil.example/x">';
    expect(absoluteHeadLinks(head, 'https://kabari.example/')).toBe(
      '<link rel="canonical" href="https://kabari.example/faqs">' +
        '<link rel="alternate" hreflang="id" href="https://kabari.example/id/faqs">' +
        '<link rel="icon" href="/icon.svg"><link rel="alternate" hreflang="en" href="https://cdn.example/faqs">' +
        '<link rel="canonical" href="//evil.example/x">',
    );
    expect(absoluteHeadLinks(head, undefined)).toBe(head);
  });
});

describe('PrerenderStitcher', () => {
  let webRoot: string;

  beforeEach(() => {
    webRoot = copyWebFixture();
  });

  afterEach(() => {
    rmSync(webRoot, { recursive: true, force: true });
  });

  it("stitches a remote's fragments into the host's shell for that path", async () => {
    const page = await stitcherFor(webRoot).render('/');
    expect(page?.prerendered).toBe(true);
    expect(page?.html).toContain('<html lang="en">');
    expect(page?.html).toContain('<head><meta charset="utf-8" /><title>Kabari — home</title>');
    expect(page?.html).toContain('<style>.home{}</style>');
    expect(page?.html).toContain('<div id="root"><main><h1>Ask a relative where they are</h1></main>');
    expect(page?.html).not.toContain('<!--kabari-page');
    expect(page?.etag).toMatch(/^".+"$/);
  });

  it('uses the shell of the /id path, with or without a trailing slash or query', async () => {
    const stitcher = stitcherFor(webRoot);
    for (const url of ['/id', '/id/', '/id/?source=sms']) {
      const page = await stitcher.render(url);
      expect(page?.html).toContain('<html lang="id">');
      expect(page?.html).toContain('Minta kerabat berbagi lokasi');
    }
    const enterLink = await stitcher.render('/id/enter-link/');
    expect(enterLink?.html).toContain('<html lang="id">');
    expect(enterLink?.html).toContain('<title>Bagikan lokasi Anda?</title>');
  });

  it('ends with exactly one <title> and one description: the page replaces the host defaults', async () => {
    const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;
    const stitcher = stitcherFor(webRoot);
    const home = (await stitcher.render('/id/'))?.html ?? '';
    expect(count(home, /<title>/g)).toBe(1);
    expect(count(home, /<meta name="description"/g)).toBe(1);
    expect(home).toContain('<title>Kabari — beranda</title>');
    expect(home).toContain('content="Minta kerabat berbagi lokasi, dengan persetujuan mereka."');
    expect(home).not.toContain('Kabari default description');

    // A head with a title but no description keeps the host's description.
    const enterLink = (await stitcher.render('/enter-link'))?.html ?? '';
    expect(count(enterLink, /<title>/g)).toBe(1);
    expect(enterLink).toContain('<title>Share your location?</title>');
    expect(enterLink).toContain('<meta name="description" content="Kabari default description">');
  });

  it('makes canonical and hreflang links absolute with the public address', async () => {
    const page = await stitcherFor(webRoot, jest.fn(), 'https://kabari.example/').render('/id');
    expect(page?.html).toContain('<link rel="canonical" href="https://kabari.example/id/">');
    expect(page?.html).toContain('<link rel="alternate" hreflang="en" href="https://kabari.example/">');
    expect(page?.html).toContain('<link rel="alternate" hreflang="x-default" href="https://kabari.example/">');
    // Without one they stay root-relative.
    expect((await stitcherFor(webRoot).render('/id'))?.html).toContain('<link rel="canonical" href="/id/">');
  });

  it('lists the pages marked for the sitemap that the host has a shell for', async () => {
    const stitcher = stitcherFor(webRoot);
    expect((await stitcher.sitemapPaths()).sort()).toEqual(['/', '/id']);

    const routes = path.join(webRoot, 'remote-search', 'dist', 'prerender', 'routes.json');
    writeFileSync(
      routes,
      JSON.stringify({
        routes: {
          '/': { html: 'home.en.html', head: 'home.en.head.html', sitemap: true },
          '/id': { html: 'home.id.html', head: 'home.id.head.html' },
          // The host has no shell for it (not one of its routes): left out.
          '/faqs': { html: 'home.en.html', head: 'home.en.head.html', sitemap: true },
        },
      }),
    );
    touchLater(routes, 5);
    expect(await stitcher.sitemapPaths()).toEqual(['/']);
  });

  it('finds routes in any remote', async () => {
    const page = await stitcherFor(webRoot).render('/enter-link?code=xyz');
    expect(page?.html).toContain('Someone asks to see your location');
  });

  it("serves the host's index.html for a page no remote prerenders", async () => {
    const page = await stitcherFor(webRoot).render('/dashboard');
    expect(page?.prerendered).toBe(false);
    expect(page?.html).toContain('<div id="root"></div>');
  });

  it('falls back to index.html, and says why, when a fragment is missing', async () => {
    const onFallback = jest.fn();
    const page = await stitcherFor(webRoot, onFallback).render('/share');
    expect(page?.prerendered).toBe(false);
    expect(onFallback).toHaveBeenCalledWith(expect.stringContaining('/share'), expect.anything());
  });

  it('falls back to index.html when the shell is missing or has no markers', async () => {
    rmSync(path.join(webRoot, 'host', 'dist', 'prerender', 'shells', 'id.html'));
    const stitcher = stitcherFor(webRoot);
    expect((await stitcher.render('/id'))?.prerendered).toBe(false);

    writeFileSync(
      path.join(webRoot, 'host', 'dist', 'prerender', 'shells', 'index.html'),
      '<html><body></body></html>',
    );
    expect((await stitcher.render('/'))?.prerendered).toBe(false);
  });

  it('refuses a fragment that points outside the prerender folder', async () => {
    const routes = path.join(webRoot, 'remote-search', 'dist', 'prerender', 'routes.json');
    writeFileSync(routes, JSON.stringify({ routes: { '/': { html: '../../../host/dist/index.html', head: 'x' } } }));
    const onFallback = jest.fn();
    const page = await stitcherFor(webRoot, onFallback).render('/');
    expect(page?.prerendered).toBe(false);
    expect(onFallback).toHaveBeenCalled();
  });

  it('survives an unreadable routes.json', async () => {
    writeFileSync(path.join(webRoot, 'remote-search', 'dist', 'prerender', 'routes.json'), '{ not json');
    const page = await stitcherFor(webRoot).render('/');
    expect(page?.prerendered).toBe(false);
  });

  it('returns null when the host is not built at all', async () => {
    rmSync(path.join(webRoot, 'host'), { recursive: true });
    expect(await stitcherFor(webRoot).render('/about-us')).toBeNull();
  });

  it('caches stitched pages until a file changes', async () => {
    const stitcher = stitcherFor(webRoot);
    const first = await stitcher.render('/');
    expect(await stitcher.render('/')).toBe(first);
    expect(await stitcher.render('/?x=1')).toBe(first);
  });

  it('picks up a remote redeployed alone: new routes.json and fragments, no restart', async () => {
    const stitcher = stitcherFor(webRoot);
    const prerender = path.join(webRoot, 'remote-search', 'dist', 'prerender');
    // The host has a shell for /faqs, but no remote prerendered that page yet.
    const shells = path.join(webRoot, 'host', 'dist', 'prerender', 'shells');
    writeFileSync(path.join(shells, 'faqs.html'), readFileSync(path.join(shells, 'index.html'), 'utf8'));
    expect((await stitcher.render('/faqs'))?.prerendered).toBe(false);
    const before = await stitcher.render('/');

    writeFileSync(path.join(prerender, 'home.v2.en.html'), '<main><h1>Version two</h1></main>');
    writeFileSync(path.join(prerender, 'faqs.en.html'), '<main><h1>FAQ</h1></main>');
    writeFileSync(
      path.join(prerender, 'routes.json'),
      JSON.stringify({
        routes: {
          '/': { html: 'home.v2.en.html', head: 'home.en.head.html' },
          '/faqs/': { html: 'faqs.en.html', head: 'home.en.head.html' },
        },
      }),
    );
    touchLater(path.join(prerender, 'routes.json'), 5);

    const after = await stitcher.render('/');
    expect(after?.html).toContain('Version two');
    expect(after?.etag).not.toBe(before?.etag);
    expect((await stitcher.render('/faqs/'))?.html).toContain('<h1>FAQ</h1>');
  });

  it('picks up a fragment rewritten in place', async () => {
    const stitcher = stitcherFor(webRoot);
    await stitcher.render('/enter-link');
    const fragment = path.join(webRoot, 'remote-share', 'dist', 'prerender', 'enter-link.en.html');
    writeFileSync(fragment, '<main><h1>Rewritten</h1></main>');
    touchLater(fragment, 5);
    expect((await stitcher.render('/enter-link'))?.html).toContain('Rewritten');
  });

  it("knows where the host's guard sends a signed-in user, re-reading the list when a new host build replaces it", async () => {
    const stitcher = stitcherFor(webRoot);
    expect(await stitcher.signedInRedirect('/about-us/?x=1')).toBe('/dashboard/');
    expect(await stitcher.signedInRedirect('/id')).toBe('/id/dashboard/');
    expect(await stitcher.signedInRedirect('/enter-link')).toBeNull();

    const file = path.join(webRoot, 'host', 'dist', 'prerender', 'signed-in-redirects.json');
    // Only paths of this site are taken: a broken build must not send anyone elsewhere.
    writeFileSync(file, JSON.stringify({ redirects: { '/faqs': '/dashboard/', '/about-us': '//elsewhere.example/' } }));
    touchLater(file, 5);
    expect(await stitcher.signedInRedirect('/faqs')).toBe('/dashboard/');
    expect(await stitcher.signedInRedirect('/about-us')).toBeNull();

    const onFallback = jest.fn();
    writeFileSync(file, '{ not json');
    touchLater(file, 10);
    expect(await stitcherFor(webRoot, onFallback).signedInRedirect('/faqs')).toBeNull();
    expect(onFallback).toHaveBeenCalledWith(expect.stringContaining('signed-in-redirects.json'), expect.anything());
    rmSync(file);
    expect(await stitcher.signedInRedirect('/faqs')).toBeNull();
  });
});
