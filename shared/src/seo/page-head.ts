import { localeFromPath, localizePath, type Locale } from '../i18n/locale';

/** What a page says about itself in the document's <head>. */
export interface PageHead {
  title: string;
  description: string;
  /** false: search engines are asked not to index the page (noindex), and it stays out of the sitemap. */
  indexable?: boolean;
}

export interface PageAlternate {
  hreflang: Locale | 'x-default';
  path: string;
}

/** A page path as links spell it: "/about-us/" → "/about-us", "/id" → "/id/" (see localizePath). */
export function canonicalPath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return localizePath(trimmed || '/', localeFromPath(trimmed));
}

/** The page in each language, and the English page for everyone else (x-default). */
export function pageAlternates(pathname: string): PageAlternate[] {
  const english = localizePath(canonicalPath(pathname), 'en');
  return [
    { hreflang: 'en', path: english },
    { hreflang: 'id', path: localizePath(english, 'id') },
    { hreflang: 'x-default', path: english },
  ];
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The <head> elements of a prerendered page. Links are root-relative: the server makes them absolute
 * with its public address when it stitches the page (search engines want full URLs; the build does not
 * know where it will be served).
 */
export function pageHeadHtml(pathname: string, head: PageHead): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
  ];
  if (head.indexable === false) tags.push('<meta name="robots" content="noindex">');
  tags.push(`<link rel="canonical" href="${escapeHtml(canonicalPath(pathname))}">`);
  for (const alternate of pageAlternates(pathname)) {
    tags.push(`<link rel="alternate" hreflang="${alternate.hreflang}" href="${escapeHtml(alternate.path)}">`);
  }
  return tags.join('');
}
