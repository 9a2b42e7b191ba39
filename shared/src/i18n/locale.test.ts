import { localeFromPath, localizePath, stripLocale } from './locale';

describe('locale from the URL', () => {
  it.each([
    ['/', 'en'],
    ['/dashboard', 'en'],
    ['/id', 'id'],
    ['/id/', 'id'],
    ['/id/enter-link', 'id'],
    ['/idea', 'en'],
  ])('%s is %s', (path, locale) => {
    expect(localeFromPath(path)).toBe(locale);
  });

  it('strips and adds the /id prefix, keeping the page', () => {
    expect(stripLocale('/id/faqs')).toBe('/faqs');
    expect(stripLocale('/id')).toBe('/');
    expect(localizePath('/faqs', 'id')).toBe('/id/faqs');
    expect(localizePath('/id/faqs', 'en')).toBe('/faqs');
    expect(localizePath('/', 'id')).toBe('/id/');
    expect(localizePath('/id/', 'en')).toBe('/');
  });
});
