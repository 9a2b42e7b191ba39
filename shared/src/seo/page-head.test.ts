import { canonicalPath, pageAlternates, pageHeadHtml } from './page-head';

describe('page head', () => {
  it.each([
    ['/', '/'],
    ['/id', '/id/'],
    ['/id/', '/id/'],
    ['/faqs/', '/faqs'],
    ['/id/faqs', '/id/faqs'],
  ])('the canonical form of %s is %s', (path, canonical) => {
    expect(canonicalPath(path)).toBe(canonical);
  });

  it('pairs each English page with its /id twin, English for everyone else', () => {
    expect(pageAlternates('/id/about-us/')).toEqual([
      { hreflang: 'en', path: '/about-us' },
      { hreflang: 'id', path: '/id/about-us' },
      { hreflang: 'x-default', path: '/about-us' },
    ]);
    expect(pageAlternates('/').map((alternate) => alternate.path)).toEqual(['/', '/id/', '/']);
  });

  it('writes one title, one description, the canonical link and the alternates, escaped', () => {
    expect(pageHeadHtml('/id/faqs', { title: 'Tanya & jawab', description: 'Jawaban "singkat"' })).toBe(
      '<title>Tanya &#38; jawab</title><meta name="description" content="Jawaban &#34;singkat&#34;">' +
        '<link rel="canonical" href="/id/faqs"><link rel="alternate" hreflang="en" href="/faqs">' +
        '<link rel="alternate" hreflang="id" href="/id/faqs"><link rel="alternate" hreflang="x-default" href="/faqs">',
    );
  });

  it('asks search engines not to index a page that says so', () => {
    expect(pageHeadHtml('/404', { title: 'Not found', description: 'x', indexable: false })).toContain(
      '<meta name="robots" content="noindex">',
    );
  });
});
