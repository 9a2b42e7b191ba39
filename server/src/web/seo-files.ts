// robots.txt and sitemap.xml: served by the server rather than emitted by a build, because both need the
// site's absolute address (PUBLIC_URL), which no build knows, and the sitemap lists whatever pages the
// remotes deployed right now have prerendered (a remote adds a page without a server or host release).
import { escapeHtml } from '../lib/escape-html';
import { englishPathOf, indonesianPathOf } from '../lib/locale-paths';
import { RECIPIENT_PAGES } from '../lib/recipient-pages';

/**
 * Routes that are personal or need a login (the operator's console too): crawlers are asked to stay out, in both
 * languages.
 */
export const DISALLOWED_PATHS = ['/dashboard', ...RECIPIENT_PAGES, '/register', '/operator'];

function origin(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

// The same five characters as in HTML.
const escapeXml = escapeHtml;

export function robotsTxt(publicUrl: string): string {
  const disallowed = DISALLOWED_PATHS.flatMap((pagePath) => [pagePath, `/id${pagePath}`]);
  return [
    'User-agent: *',
    'Allow: /',
    ...disallowed.map((pagePath) => `Disallow: ${pagePath}`),
    'Disallow: /api/',
    'Disallow: /dev/',
    '',
    `Sitemap: ${origin(publicUrl)}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * Every page once, with its language alternates (hreflang en, id and x-default → English), as Google asks: each
 * URL lists all its alternates, itself included. A page is listed with alternates only when both twins are listed.
 */
export function sitemapXml(publicUrl: string, pagePaths: string[]): string {
  const base = origin(publicUrl);
  const listed = new Set(pagePaths.map((pagePath) => (pagePath === '/id' ? '/id/' : pagePath)));
  const englishPages = [...new Set([...listed].map(englishPathOf))].sort();
  const entries: string[] = [];
  for (const english of englishPages) {
    const indonesian = indonesianPathOf(english);
    const twins = [english, indonesian].filter((pagePath) => listed.has(pagePath));
    const alternates =
      twins.length === 2
        ? [
            ['en', english],
            ['id', indonesian],
            ['x-default', english],
          ]
            .map(
              ([hreflang, href]) =>
                `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(base + href)}"/>`,
            )
            .join('\n')
        : '';
    for (const pagePath of twins) {
      entries.push(
        [
          '  <url>',
          `    <loc>${escapeXml(base + pagePath)}</loc>`,
          ...(alternates ? [alternates] : []),
          '  </url>',
        ].join('\n'),
      );
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
