import termsEn from '../../i18n/search-terms.en.json';
import termsId from '../../i18n/search-terms.id.json';
import { termsVersion } from './terms-version';

describe('termsVersion', () => {
  it('is the date the terms page says they were last updated, in both languages', () => {
    const date = new Date(`${termsVersion}T00:00:00Z`);
    const long = (locale: string) =>
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
    expect(termsEn.updated).toContain(long('en-GB'));
    expect(termsId.updated).toContain(long('id-ID'));
  });
});
