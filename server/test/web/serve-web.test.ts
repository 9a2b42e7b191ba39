import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isHashedAsset } from '../../src/lib/cache-policy';
import { buildTestApp, type TestApp } from '../support/test-app';
import { copyWebFixture } from '../support/web-fixture';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A request whose path goes on the wire exactly as written (fetch and inject would normalise it first). */
function rawRequest(origin: string, method: string, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}/`, { method, path: rawPath, agent: false, headers: { accept: '*/*' } });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('isHashedAsset', () => {
  it.each([
    ['main.3f9a1c2b7d.js', true],
    ['412.9c8b7a6f5e.js', true],
    ['vendor.0a1b2c3d4e5f.js.br', true],
    ['styles.ABCDEF0123.css', true],
    ['remoteEntry.js', false],
    ['mf-manifest.json', false],
    ['index.html', false],
    ['main.3f9a1c.js', false],
    ['logo.png', false],
  ])('%s → %s', (name, hashed) => {
    expect(isHashedAsset(name)).toBe(hashed);
  });
});

describe('serving the built web apps (SERVE_WEB)', () => {
  let testApp: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = copyWebFixture();
    testApp = await buildTestApp('pglite', {
      SERVE_WEB: 'true',
      WEB_ROOT: webRoot,
      PUBLIC_URL: 'https://kabari.example',
    });
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('caches hashed assets for a year', async () => {
    const response = await get('/main.3f9a1c2b7d.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body).toContain('host main');
  });

  it('revalidates non-hashed files, with an ETag', async () => {
    const response = await get('/site.css');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const etag = response.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/site.css', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  it("serves a remote's manifest and remoteEntry.js revalidated, and its chunks immutable, to any origin", async () => {
    const manifest = await get('/remotes/search/mf-manifest.json');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json()).toMatchObject({ id: 'kabari_search' });
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['access-control-allow-origin']).toBe('*');
    expect(manifest.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const entry = await get('/remotes/search/remoteEntry.js');
    expect(entry.statusCode).toBe(200);
    expect(entry.headers['cache-control']).toBe('no-cache');

    const chunk = await get('/remotes/search/412.9c8b7a6f5e.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('serves the precompressed twin when the client accepts it', async () => {
    const brotli = await get('/assets/vendor.0a1b2c3d4e5f.js', { 'accept-encoding': 'br, gzip' });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain('export const filler');

    const gzip = await get('/assets/vendor.0a1b2c3d4e5f.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const plain = await get('/assets/vendor.0a1b2c3d4e5f.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('export const filler');
  });

  it('compresses other files on the fly', async () => {
    const response = await get('/site.css', { 'accept-encoding': 'gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('answers a page route with the host HTML, never cached without revalidation', async () => {
    const response = await get('/about-us', HTML);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root"></div>');
    const etag = response.headers.etag as string;
    expect((await get('/about-us', { ...HTML, 'if-none-match': etag })).statusCode).toBe(304);

    // Every unknown page too: the client router shows its own 404 page.
    const unknown = await get('/no/such/page/', HTML);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('<div id="root"></div>');
    expect(unknown.headers['x-robots-tag']).toBeUndefined();
  });

  it("answers the operator's console with the host HTML, kept out of search engines in both languages", async () => {
    for (const page of ['/operator', '/operator/reports/3f1c', '/id/operator/sign-in']) {
      const response = await get(page, HTML);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    }
    expect((await get('/operators-guide', HTML)).headers['x-robots-tag']).toBeUndefined();
  });

  it('serves prerendered pages stitched into the shell of their language', async () => {
    const home = await get('/', HTML);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<html lang="en">');
    expect(home.body).toContain('Ask a relative where they are');
    expect(home.headers['cache-control']).toBe('no-cache');

    const homeId = await get('/id/', HTML);
    expect(homeId.body).toContain('<html lang="id">');
    expect(homeId.body).toContain('Minta kerabat berbagi lokasi');

    const enterLink = await get('/enter-link?code=abc', HTML);
    expect(enterLink.body).toContain('Someone asks to see your location');
    expect(enterLink.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends the bare address to /id/ when the locale cookie says id; any explicit path is served as asked', async () => {
    const chosen = await get('/?source=sms', { ...HTML, cookie: 'locale=id' });
    expect(chosen.statusCode).toBe(302);
    expect(chosen.headers.location).toBe('/id/?source=sms');
    expect(chosen.headers['cache-control']).toBe('no-store');
    expect(chosen.headers.vary).toBe('Accept-Encoding, Cookie');

    // The answer depends on the cookie: caches are told so, and a revalidation still follows the cookie.
    const english = await get('/', { ...HTML, cookie: 'locale=en' });
    expect(english.statusCode).toBe(200);
    expect(english.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(english.body).toContain('<html lang="en">');
    const revalidated = await get('/', {
      ...HTML,
      cookie: 'locale=id',
      'if-none-match': english.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(302);
    expect((await get('/', HTML)).statusCode).toBe(200);
    expect((await get('/', { ...HTML, cookie: 'locale=xx' })).statusCode).toBe(200);

    for (const explicit of ['/about-us', '/id/', '/id/about-us']) {
      const response = await get(explicit, { ...HTML, cookie: 'locale=id' });
      expect(response.statusCode).toBe(200);
      // Not on the locale cookie: Cookie is there for the session cookie (visitor-only pages, tested below).
      expect(response.headers.vary).toBe('Accept-Encoding, Cookie');
    }
    expect((await get('/enter-link', { ...HTML, cookie: 'locale=id' })).headers.vary).toBe('Accept-Encoding');
    expect((await get('/about-us', { ...HTML, cookie: 'locale=id' })).body).toContain('<html lang="en">');
  });

  it('remembers a language chosen by the plain switch link (hl) and sends the browser to the clean address', async () => {
    const switched = await get('/id/privacy-policy?source=sms&hl=id', HTML);
    expect(switched.statusCode).toBe(302);
    expect(switched.headers.location).toBe('/id/privacy-policy?source=sms');
    expect(switched.headers['cache-control']).toBe('no-store');
    expect(String(switched.headers['set-cookie'])).toMatch(/^locale=id; Max-Age=31536000; Path=\/; SameSite=Lax$/);
    const back = await get('/about-us?hl=en', HTML);
    expect(back.headers.location).toBe('/about-us');
    expect(String(back.headers['set-cookie'])).toMatch(/^locale=en;/);

    // Only the two languages; and never towards another site.
    const unknown = await get('/about-us?hl=fr', HTML);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.headers['set-cookie']).toBeUndefined();
    expect((await get('//evil.example/x?hl=id', HTML)).headers.location).toBe('/x');
    expect((await get('/\\evil/x?hl=id', HTML)).headers.location).toBe('/x');
  });

  it("sends a signed-in user from a visitor-only page to the dashboard in the page's language, before any page shows", async () => {
    for (const [page, target] of [
      ['/about-us?source=sms', '/dashboard/'],
      ['/id/about-us/', '/id/dashboard/'],
      ['/', '/dashboard/'],
      ['/id', '/id/dashboard/'],
    ]) {
      const response = await get(page as string, { ...HTML, cookie: 'token=s3ss10n' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(target);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.vary).toBe('Accept-Encoding, Cookie');
    }
    // The bare address in the language last chosen.
    const chosen = await get('/', { ...HTML, cookie: 'locale=id; token=s3ss10n' });
    expect(chosen.headers.location).toBe('/id/dashboard/');
    // A revalidation of a page cached while signed out still follows the cookie.
    const visitor = await get('/about-us', HTML);
    expect(visitor.statusCode).toBe(200);
    const revalidated = await get('/about-us', {
      ...HTML,
      cookie: 'token=s3ss10n',
      'if-none-match': visitor.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(302);
    // An emptied cookie is a signed-out visitor; the recipient's pages and unknown paths are for anyone.
    expect((await get('/about-us', { ...HTML, cookie: 'token=' })).statusCode).toBe(200);
    expect((await get('/enter-link?code=abc', { ...HTML, cookie: 'token=s3ss10n' })).statusCode).toBe(200);
    expect((await get('/no/such/page', { ...HTML, cookie: 'token=s3ss10n' })).statusCode).toBe(200);
  });

  it('gives a prerendered page its own title, description and absolute language alternates', async () => {
    const home = await get('/', HTML);
    expect(home.body.match(/<title>/g)).toHaveLength(1);
    expect(home.body).toContain('<title>Kabari — home</title>');
    expect(home.body).toContain('<link rel="alternate" hreflang="id" href="https://kabari.example/id/">');
  });

  it('serves robots.txt: protected and personal routes disallowed in both languages, the sitemap named', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const lines = response.body.split('\n');
    for (const line of ['User-agent: *', 'Disallow: /dashboard', 'Disallow: /id/dashboard', 'Disallow: /api/']) {
      expect(lines).toContain(line);
    }
    expect(lines).toContain('Sitemap: https://kabari.example/sitemap.xml');
    expect(lines).not.toContain('Disallow: /');
    const etag = response.headers.etag as string;
    expect((await get('/robots.txt', { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('serves sitemap.xml from the pages the remotes prerender, with hreflang alternates', async () => {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const locs = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(['https://kabari.example/', 'https://kabari.example/id/']);
    expect(response.body.match(/hreflang="x-default" href="https:\/\/kabari\.example\/"/g)).toHaveLength(2);
    // enter-link has no sitemap mark (a personal page): not listed.
    expect(response.body).not.toContain('enter-link');
  });

  it('picks up a remote redeployed alone, without a restart', async () => {
    const prerender = path.join(webRoot, 'remote-share', 'dist', 'prerender');
    writeFileSync(path.join(prerender, 'enter-link.v2.en.html'), '<main><h1>Redeployed share page</h1></main>');
    const routes = path.join(prerender, 'routes.json');
    writeFileSync(
      routes,
      JSON.stringify({ routes: { '/enter-link': { html: 'enter-link.v2.en.html', head: 'enter-link.en.head.html' } } }),
    );
    const later = new Date(Date.now() + 5000);
    utimesSync(routes, later, later);
    const response = await get('/enter-link', HTML);
    expect(response.body).toContain('Redeployed share page');
  });

  it('never answers /api paths, missing files or non-HTML requests with the page', async () => {
    const api = await get('/api/v1/unknown', HTML);
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ status: 404, message: 'Not found: GET /api/v1/unknown', data: null });

    const missingAsset = await get('/main.0000000000.js', HTML);
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.json()).toMatchObject({ status: 404, data: null });

    const missingRemoteFile = await get('/remotes/search/999.abcdef0123.js');
    expect(missingRemoteFile.statusCode).toBe(404);

    const unknownRemote = await get('/remotes/elsewhere/remoteEntry.js');
    expect(unknownRemote.statusCode).toBe(404);

    const json = await get('/about-us', { accept: 'application/json' });
    expect(json.statusCode).toBe(404);

    const post = await testApp.app.inject({ method: 'POST', url: '/about-us', headers: HTML });
    expect(post.statusCode).toBe(404);
  });

  it('keeps the prerender fragments, dotfiles and anything outside the build private', async () => {
    expect((await get('/prerender/shells/index.html')).statusCode).toBe(404);
    writeFileSync(path.join(webRoot, 'host', 'dist', '.env'), 'SECRET=1');
    expect((await get('/.env')).statusCode).toBe(404);
    writeFileSync(path.join(webRoot, 'secret.txt'), 'outside');
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/remotes/search/..%2f..%2f..%2fsecret.txt']) {
      const response = await get(url);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain('outside');
    }
  });

  it('keeps every internal file private, however its path is spelled', async () => {
    // Each internal file holds a marker that must never reach a client.
    const internal: [string, string][] = [
      ['host/dist/prerender/shells/private.html', '/prerender/shells/private.html'],
      ['host/dist/prerender/signed-in-redirects.json', '/prerender/signed-in-redirects.json'],
      ['remote-share/dist/prerender/routes.json', '/remotes/share/prerender/routes.json'],
      ['remote-search/dist/prerender/home.en.html', '/remotes/search/prerender/home.en.html'],
      ['host/dist/.env', '/.env'],
      ['host/dist/.prerender/entry.js', '/.prerender/entry.js'],
      ['remote-search/dist/.env', '/remotes/search/.env'],
      ['host/dist/main.3f9a1c2b7d.js.map', '/main.3f9a1c2b7d.js.map'],
      ['remote-search/dist/412.9c8b7a6f5e.js.map', '/remotes/search/412.9c8b7a6f5e.js.map'],
      ['host/dist/node_modules/left-pad/index.js', '/node_modules/left-pad/index.js'],
    ];
    internal.forEach(([file], index) => {
      mkdirSync(path.dirname(path.join(webRoot, file)), { recursive: true });
      writeFileSync(path.join(webRoot, file), `INTERNAL-${index}`);
    });
    // Outside every build folder: the server, its packages, the repository.
    mkdirSync(path.join(webRoot, 'server', 'dist'), { recursive: true });
    writeFileSync(path.join(webRoot, 'server', 'dist', 'server.js'), 'INTERNAL-server');
    writeFileSync(path.join(webRoot, 'package.json'), 'INTERNAL-package');

    // Every way a client might spell the same path: double slashes, dot segments, percent-encoded dots,
    // slashes and backslashes, double encoding, backslashes, another case.
    const spellings = (url: string): string[] => {
      const [, first = '', rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(url) ?? [];
      const tail = url.slice(1);
      return [
        url,
        `/${url}`,
        `/./${tail}`,
        `/%2e/${tail}`,
        `/%2E/${tail}`,
        `/%252e/${tail}`,
        `/x/../${tail}`,
        `/x/%2e%2e/${tail}`,
        `/x/..%2f${tail}`,
        `/x%2f..%2f${tail}`,
        `/x/..%5c${tail}`,
        `/x\\..\\${tail}`,
        `/${first}//${rest.slice(1)}`,
        `/${first}/.${rest}`,
        `/${first}%2f${rest.slice(1)}`,
        `/${first}%2F${rest.slice(1).replaceAll('/', '%2F')}`,
        `/${first.toUpperCase()}${rest}`,
        `/${first[0]?.toUpperCase()}${first.slice(1)}${rest}`,
        `/${encodeURIComponent(first).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)}${rest}`,
      ].filter((spelled) => spelled.endsWith(url.slice(url.lastIndexOf('/'))));
    };
    const remoteSpellings = (url: string): string[] => {
      const [, name = '', inside = ''] = /^\/remotes\/([^/]+)(\/.*)$/.exec(url) ?? [];
      return [
        ...spellings(inside).map((spelled) => `/remotes/${name}${spelled}`),
        `/remotes//${name}${inside}`,
        `/remotes/${name}/../${name}${inside}`,
        `/remotes/dashboard/../${name}${inside}`,
        `/remotes/dashboard/%2e%2e/${name}${inside}`,
        `/remotes/dashboard/..%2f${name}${inside}`,
        `/remotes%2f${name}${inside}`,
        `//remotes/${name}${inside}`,
        `/Remotes/${name}${inside}`,
      ];
    };
    const outside = ['/server/dist/server.js', '/package.json'].flatMap((file) =>
      [
        '/..',
        '/%2e%2e',
        '/%2E%2E',
        '/..%2f..',
        '/x/../..',
        '/remotes/search/../..',
        '/remotes/search/..%2f..%2f..',
      ].map((up) => `${up}/..${file}`),
    );
    const urls = [
      ...internal.flatMap(([, url]) => (url.startsWith('/remotes/') ? remoteSpellings(url) : spellings(url))),
      ...outside,
      '/..%5c..%5cpackage.json',
      // The API documentation's own files (the same static file server underneath).
      ...[
        '/../package.json',
        '/..%2fpackage.json',
        '/%2e%2e/package.json',
        '/x/../../package.json',
        '/.%2e/index.js',
      ].map((up) => `/api/docs/static${up}`),
      '/x\\..\\..\\..\\package.json',
    ];
    // Over a real socket: inject() would tidy the path (dot segments) before the server ever saw it.
    const address = await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const served: string[] = [];
    for (const url of urls) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await rawRequest(address, method, url);
        if (response.status < 400 || response.body.includes('INTERNAL-')) {
          served.push(`${method} ${url} → ${response.status}`);
        }
      }
    }
    expect(served).toEqual([]);
  });

  it("selects the visitor's country in the home page's country list, and tells caches the page differs by it", async () => {
    // The list as the search's PhoneInput prerenders it: the default chosen, marked for the server.
    writeFileSync(
      path.join(webRoot, 'remote-search', 'dist', 'prerender', 'home.en.html'),
      '<main><h1>Ask a relative where they are</h1><form><select id="home-search-country" name="country" ' +
        'data-visitor-country=""><option value="AU">Australia (+61)</option>' +
        '<option value="US" selected="">United States (+1)</option></select></form></main>',
    );
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'GET', url: '/', remoteAddress, headers: { ...HTML, ...headers } });

    // 1.1.1.1 is in Australia for the bundled database.
    const australia = await from('1.1.1.1');
    expect(australia.statusCode).toBe(200);
    expect(australia.body).toContain('<option value="AU" selected="">Australia (+61)</option>');
    expect(australia.body).toContain('<option value="US">United States (+1)</option>');
    expect(australia.headers['cache-control']).toBe('no-cache');
    // An address the database does not place keeps the prerendered default.
    const unknown = await from('127.0.0.1');
    expect(unknown.body).toContain('<option value="US" selected="">');
    expect(unknown.body).not.toContain('<option value="AU" selected="">');

    // A copy kept for one country is answered anew for a visitor of another, and confirmed for the same.
    expect(australia.headers.etag).not.toBe(unknown.headers.etag);
    const revalidated = await from('127.0.0.1', { 'if-none-match': australia.headers.etag as string });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toContain('<option value="US" selected="">');
    expect((await from('1.1.1.1', { 'if-none-match': australia.headers.etag as string })).statusCode).toBe(304);
  });

  it('keeps the runtime configuration and the API routes ahead of the files', async () => {
    writeFileSync(path.join(webRoot, 'host', 'dist', 'runtime-config.json'), '{"stale":true}');
    const response = await get('/runtime-config.json');
    expect(response.json()).toMatchObject({ status: 200, data: { apiBaseUrl: '' } });
    expect((await get('/healthz')).json()).toMatchObject({ status: 200 });
  });
});

describe('serving the web apps before they are built', () => {
  it('says plainly that the build is missing', async () => {
    const testApp = await buildTestApp('pglite', { SERVE_WEB: 'true', WEB_ROOT: path.join(__dirname, 'nothing-here') });
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/', headers: HTML });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toMatch(/not built/);
      const indonesian = await testApp.app.inject({
        method: 'GET',
        url: '/about-us',
        headers: { ...HTML, 'accept-language': 'id-ID,id;q=0.9' },
      });
      expect(indonesian.json().message).toMatch(/belum dibangun/);
    } finally {
      await testApp.close();
    }
  });
});
