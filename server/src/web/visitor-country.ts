/**
 * The home page's country list defaults to the visitor's own country (the country of their IP address), before its
 * app has started too: the list marks itself `data-visitor-country` in the prerendered page (PhoneInput,
 * shared/src/requests/phone-input.tsx), and the server selects that country in it, per request. The page is answered
 * `no-cache` with an ETag that names the country, so a cache never hands one visitor's country to another: it asks
 * every time, and a copy for another country is answered anew.
 */

const MARK = ' data-visitor-country=""';
const MARKED_LIST = /<select\b[^>]*\sdata-visitor-country=""[^>]*>([\s\S]*?)<\/select>/;
const SELECTED = /\sselected=""/g;
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Whether the page holds a country list the server should set (only then is the visitor's address looked up). */
export function hasVisitorCountryList(html: string): boolean {
  return html.includes(MARK);
}

/**
 * The page with `countryCode` selected in its marked country list; as it was when the country is unknown, not in the
 * list, or the page has no such list. `etag` is the page's own, changed with the country.
 */
export function withVisitorCountry(
  page: { html: string; etag: string },
  countryCode: string | null | undefined,
): { html: string; etag: string } {
  if (!countryCode || !COUNTRY_CODE.test(countryCode)) return page;
  const list = MARKED_LIST.exec(page.html);
  if (!list) return page;
  const options = list[1] ?? '';
  const option = `<option value="${countryCode}"`;
  if (!options.includes(option)) return page;
  const chosen = options.replace(SELECTED, '').replace(option, `${option} selected=""`);
  const start = list.index + list[0].length - '</select>'.length - options.length;
  const html = page.html.slice(0, start) + chosen + page.html.slice(start + options.length);
  return { html, etag: page.etag.replace(/"$/, `-${countryCode}"`) };
}
