import { englishPathOf, indonesianPathOf } from '../../src/lib/locale-paths';

describe('locale paths', () => {
  it('gives a page’s English path and its Indonesian twin, from either', () => {
    expect(['/id', '/id/', '/', '/id/faqs', '/faqs', '/id/share/'].map(englishPathOf)).toEqual([
      '/',
      '/',
      '/',
      '/faqs',
      '/faqs',
      '/share/',
    ]);
    expect(['/', '/id/', '/faqs', '/id/faqs'].map(indonesianPathOf)).toEqual(['/id/', '/id/', '/id/faqs', '/id/faqs']);
    // Only the prefix as a whole segment: a page whose name starts with "id" is English.
    expect(englishPathOf('/identity')).toBe('/identity');
  });
});
