import { robotsTxt, sitemapXml } from '../../src/web/seo-files';

describe('robotsTxt', () => {
  it('disallows the protected and personal routes in both languages and names the sitemap', () => {
    const text = robotsTxt('https://kabari.example/');
    expect(text).toContain('Disallow: /dashboard\nDisallow: /id/dashboard\n');
    expect(text).toContain('Disallow: /id/enter-link\n');
    expect(text).toContain('Disallow: /operator\nDisallow: /id/operator\n');
    expect(text.trimEnd().endsWith('Sitemap: https://kabari.example/sitemap.xml')).toBe(true);
  });
});

describe('sitemapXml', () => {
  it('lists each page once, with en, id and x-default alternates when both twins exist', () => {
    const xml = sitemapXml('https://kabari.example', ['/about-us', '/id/about-us', '/id', '/', '/faqs']);
    const urls = xml.split('<url>').slice(1);
    expect(urls).toHaveLength(5);
    expect(urls.map((url) => url.match(/<loc>([^<]+)</)?.[1])).toEqual([
      'https://kabari.example/',
      'https://kabari.example/id/',
      'https://kabari.example/about-us',
      'https://kabari.example/id/about-us',
      'https://kabari.example/faqs',
    ]);
    expect(urls[3]).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://kabari.example/about-us"/>');
    expect(urls[3]).toContain('<xhtml:link rel="alternate" hreflang="id" href="https://kabari.example/id/about-us"/>');
    expect(urls[3]).toContain(
      '<xhtml:link rel="alternate" hreflang="x-default" href="https://kabari.example/about-us"/>',
    );
    // Its twin is not listed: no alternates claimed.
    expect(urls[4]).not.toContain('xhtml:link');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true);
  });
});
