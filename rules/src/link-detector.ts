import { LinkifyIt } from 'linkify-it';
import tlds from 'tlds';

/**
 * Finds what a reader of a message could follow or type as a link: a URL with its scheme, a bare domain under any
 * top-level domain IANA lists (`bca-verify.top`, `wa.me/…`, `пример.рф`), an email address or an IP address. The
 * `tlds` package follows IANA's list, so a new top-level domain is known after an upgrade, not after someone
 * notices a regular expression missed it. Free text is checked as typed and in its compatibility form (NFKC), so
 * full-width letters and dots (`ｂｃａ．ｔｏｐ`) are read as the plain ones a phone shows them as.
 */
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(tlds);

// A scheme or a `www.` prefix reads as a link to a person even where the domain after it is not a real one.
const TYPED_LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)\S*/i;

// Every link linkify-it finds holds one of these: a domain's or an IP address's dot, an email's @, a scheme's colon
// or //. A text without any (most names) skips it: its first search compiles a pattern of every top-level domain,
// the largest part of checking a name on a phone.
const LINK_MARK = /[.@:/]/;

/** The first link-like text in `text`, or null when there is none. */
export function findLink(text: string): string | null {
  for (const form of new Set([text, text.normalize('NFKC')])) {
    const match = LINK_MARK.test(form) ? linkify.match(form)?.[0] : undefined;
    if (match) return match.raw;
    const typed = TYPED_LINK.exec(form);
    if (typed) return typed[0];
  }
  return null;
}
