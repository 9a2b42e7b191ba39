import type { RenderedEmail } from '../messages/templates';
import { emailHtml, paragraphHtml, SIGNATURE } from '../messages/email-document';
import { longDate, messagesIn, type Locale } from '../lib/messages';

/** A safety desk email's text in the reader's language (server/src/i18n, section safetyEmail). */
const text = messagesIn('safetyEmail');

/**
 * The operator's warning after a report: what was reported, the rule, what happens next time, and where to write
 * back. Names neither the recipient nor the report's text: the requester must not learn who reported them.
 */
export function warningEmail(
  locale: Locale,
  facts: { displayName: string; reportedAt: Date; siteUrl: string },
): RenderedEmail {
  const contactUrl = `${facts.siteUrl}${locale === 'id' ? '/id' : ''}/contact-us`;
  const paragraphs = [
    text(locale, 'hello', { name: facts.displayName }),
    text(locale, 'warnWhy', { date: longDate(facts.reportedAt, locale) }),
    text(locale, 'warnRule'),
    text(locale, 'warnNext'),
    text(locale, 'warnContact', { url: contactUrl }),
  ];
  return {
    subject: text(locale, 'warnSubject'),
    text: [...paragraphs, '', SIGNATURE].join('\n\n'),
    html: emailHtml(locale, paragraphs.map(paragraphHtml).join('\n')),
  };
}
