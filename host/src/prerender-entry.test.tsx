import { startsOnFirstUse } from './prerender-entry';

describe('which prerendered pages start the app on first use', () => {
  it('the public pages, in both languages; not the recipient pages nor the dashboard', () => {
    for (const page of ['/', '/id/', '/about-us', '/id/faqs', '/contact-us', '/id/404']) {
      expect(startsOnFirstUse(page)).toBe(true);
    }
    for (const page of ['/enter-link', '/id/enter-link', '/id/share', '/dashboard', '/id/dashboard']) {
      expect(startsOnFirstUse(page)).toBe(false);
    }
  });

  it('not a page that the build’s route rules send elsewhere, in either language: the app applies them on load', () => {
    const rules = { '/about-us': { redirect: '/faqs' } };
    expect(startsOnFirstUse('/about-us', rules)).toBe(false);
    expect(startsOnFirstUse('/id/about-us', rules)).toBe(false);
    expect(startsOnFirstUse('/faqs', rules)).toBe(true);
  });
});
