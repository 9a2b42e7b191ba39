import { hasVisitorCountryList, withVisitorCountry } from '../../src/web/visitor-country';

const list =
  '<select id="home-search-country" name="country" data-visitor-country="">' +
  '<option value="GB">United Kingdom (+44)</option><option value="ID">Indonesia (+62)</option>' +
  '<option value="US" selected="">United States (+1)</option></select>';
const page = {
  html: `<main><h1>Home</h1>${list}<select name="topic"><option value="GB">GB</option></select></main>`,
  etag: '"abc"',
};

describe("the visitor's country in the home page's list", () => {
  it('selects that country, and only in the marked list', () => {
    expect(hasVisitorCountryList(page.html)).toBe(true);
    const chosen = withVisitorCountry(page, 'GB');
    expect(chosen.html).toBe(
      '<main><h1>Home</h1><select id="home-search-country" name="country" data-visitor-country="">' +
        '<option value="GB" selected="">United Kingdom (+44)</option><option value="ID">Indonesia (+62)</option>' +
        '<option value="US">United States (+1)</option></select>' +
        '<select name="topic"><option value="GB">GB</option></select></main>',
    );
    expect(chosen.etag).toBe('"abc-GB"');
  });

  it('keeps the page as prerendered for an unknown country, one not in the list, or a page without the list', () => {
    for (const country of [null, undefined, '', 'FR', 'gb', '"><script>']) {
      expect(withVisitorCountry(page, country)).toBe(page);
    }
    const plain = { html: '<main><select name="country"><option value="GB">GB</option></select></main>', etag: '"x"' };
    expect(hasVisitorCountryList(plain.html)).toBe(false);
    expect(withVisitorCountry(plain, 'GB')).toBe(plain);
  });
});
