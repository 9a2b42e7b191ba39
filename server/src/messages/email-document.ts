import { escapeHtml } from '../lib/escape-html';
import type { Locale } from '../lib/messages';

/** How every email to a person ends. */
export const SIGNATURE = '— Kabari';

/**
 * An email's HTML: `body` (markup whose text is already escaped) in Kabari's plain document, in the reader's
 * language. `signed`: with the signature (the operator's emails go without).
 */
export function emailHtml(locale: Locale, body: string, options: { signed: boolean } = { signed: true }): string {
  return `<!doctype html>
<html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">
${body}${options.signed ? `\n<p>${SIGNATURE}</p>` : ''}
</body></html>`;
}

/** An email's plain text: its lines, then a blank line and the signature. */
export const emailText = (lines: string[]): string => [...lines, '', SIGNATURE].join('\n');

/** A paragraph of text, escaped. */
export const paragraphHtml = (text: string): string => `<p>${escapeHtml(text)}</p>`;

/** A paragraph that ends with a link: its text, then the address as the link. */
export const linkHtml = (link: { text: string; url: string }): string =>
  `<p>${escapeHtml(link.text)} <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>`;
