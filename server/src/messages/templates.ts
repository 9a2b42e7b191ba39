import type { RequestChannel, RequesterNotice } from '../db/column-values';
import { messagesIn, type Locale, type MessageKey } from '../lib/messages';
import { escapeHtml } from '../lib/escape-html';
import { emailHtml, emailText, linkHtml, paragraphHtml } from './email-document';
import type { PushNotification } from './web-push-sender';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** A short letter: the greeting, its paragraphs, a link where given, the signature; as text and as HTML. */
function letter(
  locale: Locale,
  parts: { subject: string; greeting: string; paragraphs: string[]; link?: { text: string; url: string } },
): RenderedEmail {
  const { subject, greeting, paragraphs, link } = parts;
  // Blocks a blank line apart; the link's text and its address on lines of their own.
  const blocks = [greeting, ...paragraphs, ...(link ? [`${link.text}\n${link.url}`] : [])];
  const text = emailText(blocks.flatMap((block, index) => (index ? ['', block] : [block])));
  const html = emailHtml(
    locale,
    [greeting, ...paragraphs].map(paragraphHtml).join('\n') + (link ? `\n${linkHtml(link)}` : ''),
  );
  return { subject, text, html };
}

/** An account email's text in the account's language (server/src/i18n, section accountEmail). */
const text = messagesIn('accountEmail');

/** The site's home in the reader's language. */
const homeIn = (siteUrl: string, locale: Locale) => `${siteUrl}${locale === 'id' ? '/id' : ''}/`;

/**
 * `siteUrl` is the configured public address (PUBLIC_URL), never one taken from a request: the email says where
 * the code belongs, so a look-alike site asking for it stands out.
 */
export function resetCodeEmail(locale: Locale, displayName: string, code: string, siteUrl: string): RenderedEmail {
  return codeEmail(locale, {
    subject: text(locale, 'resetSubject'),
    greeting: text(locale, 'hello', { name: displayName }),
    intro: text(locale, 'resetIntro'),
    code,
    use: text(locale, 'resetUse'),
    link: { text: text(locale, 'resetWhere'), url: homeIn(siteUrl, locale) },
    ignore: text(locale, 'resetIgnore'),
  });
}

/** Sent to the NEW address: the code that proves it belongs to the subscriber. */
export function emailChangeCodeEmail(locale: Locale, displayName: string, code: string): RenderedEmail {
  return codeEmail(locale, {
    subject: text(locale, 'changeCodeSubject'),
    greeting: text(locale, 'hello', { name: displayName }),
    intro: text(locale, 'changeCodeIntro'),
    code,
    use: text(locale, 'changeCodeUse'),
    ignore: text(locale, 'changeCodeIgnore'),
  });
}

interface CodeEmailParts {
  subject: string;
  greeting: string;
  intro: string;
  code: string;
  use: string;
  link?: { text: string; url: string };
  ignore: string;
}

/**
 * An email whose point is a 6-digit code: the code large, what it is for, where to enter it (`link`, when given)
 * and what to do if it was not you.
 */
function codeEmail(locale: Locale, parts: CodeEmailParts): RenderedEmail {
  const { greeting, intro, code, use, link, ignore } = parts;
  const plain = emailText([
    greeting,
    '',
    `${intro} ${code}`,
    '',
    use,
    '',
    ...(link ? [link.text, link.url, ''] : []),
    ignore,
  ]);
  const html = emailHtml(
    locale,
    [
      paragraphHtml(greeting),
      paragraphHtml(intro),
      `<p style="font-size: 28px; font-weight: bold; letter-spacing: 4px">${escapeHtml(code)}</p>`,
      paragraphHtml(use),
      ...(link ? [linkHtml(link)] : []),
      `<p style="color: #666">${escapeHtml(ignore)}</p>`,
    ].join('\n'),
  );
  return { subject: parts.subject, text: plain, html };
}

/** The consent overview's page in the reader's language: where a code sent for it is entered. */
export const overviewPageIn = (siteUrl: string, locale: Locale) =>
  `${siteUrl}${locale === 'id' ? '/id' : ''}/my-requests`;

const overviewText = messagesIn('overviewCode');

/**
 * The code that opens the consent overview, sent to the address that was typed on it. It names no requester and
 * says nothing of whether any request went there: the message is the same for every address.
 */
export function overviewCodeEmail(locale: Locale, code: string, siteUrl: string): RenderedEmail {
  return codeEmail(locale, {
    subject: overviewText(locale, 'subject'),
    greeting: overviewText(locale, 'greeting'),
    intro: overviewText(locale, 'intro'),
    code,
    use: overviewText(locale, 'use'),
    link: { text: overviewText(locale, 'where'), url: overviewPageIn(siteUrl, locale) },
    ignore: overviewText(locale, 'ignore'),
  });
}

/** The same code by SMS: one segment's worth of words, and the only address it may be entered at. */
export function overviewCodeSms(locale: Locale, code: string, siteUrl: string): string {
  return overviewText(locale, 'sms', { code, url: overviewPageIn(siteUrl, locale) });
}

/** "b•••@example.com": enough for the owner to recognise, not the whole address in a mailbox they may have lost. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** Sent to the OLD address once the change is made, so a takeover does not go unnoticed. */
export function emailChangedEmail(locale: Locale, displayName: string, newEmail: string): RenderedEmail {
  return letter(locale, {
    subject: text(locale, 'emailChangedSubject'),
    greeting: text(locale, 'hello', { name: displayName }),
    paragraphs: [
      text(locale, 'emailChangedBody', { masked: maskedEmail(newEmail) }),
      text(locale, 'emailChangedNotYou'),
    ],
  });
}

/**
 * Sent to the account's address, in the account's language, whenever its password changes (by a reset code or in
 * the account settings), so that a change the owner did not make does not go unnoticed.
 */
export function passwordChangedEmail(locale: Locale, displayName: string, how: 'reset' | 'account'): RenderedEmail {
  return letter(locale, {
    subject: text(locale, 'passwordChangedSubject'),
    greeting: text(locale, 'hello', { name: displayName }),
    paragraphs: [
      text(locale, how === 'reset' ? 'passwordChangedByReset' : 'passwordChangedInAccount'),
      text(locale, 'passwordChangedSignedOut'),
      text(locale, 'passwordChangedNotYou'),
    ],
  });
}

/** Each notice's subject and first paragraph. */
const NOTICE_TEXTS: Record<RequesterNotice, { subject: MessageKey<'accountEmail'>; body: MessageKey<'accountEmail'> }> =
  {
    shared: { subject: 'sharedSubject', body: 'sharedBody' },
    declined: { subject: 'declinedSubject', body: 'declinedBody' },
    stopped: { subject: 'stoppedSubject', body: 'stoppedBody' },
    withdrawn: { subject: 'withdrawnSubject', body: 'withdrawnBody' },
    live_ended: { subject: 'liveEndedSubject', body: 'liveEndedBody' },
  };

/** The words a notice names who answered with, in the requester's language. */
function whoAnswered(locale: Locale, asked: AskedTarget): string {
  const untitled = text(locale, 'noticeUntitledLink');
  if (asked.channel !== 'link') return asked.target ?? untitled;
  return asked.title ? text(locale, 'noticeLink', { title: asked.title }) : untitled;
}

/** Who answered, as the requester knows them: the number or address they asked, or their link's title. */
export interface AskedTarget {
  channel: RequestChannel;
  target: string | null;
  title: string | null;
}

/**
 * Tells the requester, in their account's language, what a recipient did with their request: shared, declined,
 * stopped, or withdrew consent; or that the live sharing they turned on has ended at its time. `siteUrl` is the
 * configured public address (the dashboard's link).
 */
export function requesterNoticeEmail(
  locale: Locale,
  displayName: string,
  notice: RequesterNotice,
  asked: AskedTarget,
  siteUrl: string,
): RenderedEmail {
  const who = whoAnswered(locale, asked);
  return letter(locale, {
    subject: text(locale, NOTICE_TEXTS[notice].subject, { who }),
    greeting: text(locale, 'hello', { name: displayName }),
    paragraphs: [text(locale, NOTICE_TEXTS[notice].body, { who }), text(locale, 'noticeSettings')],
    link: { text: text(locale, 'noticeDashboard'), url: `${homeIn(siteUrl, locale)}dashboard/` },
  });
}

/** The same news as requesterNoticeEmail, as a notification on the requester's devices; a click opens the dashboard. */
export function requesterNoticePush(
  locale: Locale,
  notice: RequesterNotice,
  asked: AskedTarget & { id: string },
  siteUrl: string,
): PushNotification {
  const who = whoAnswered(locale, asked);
  return {
    title: text(locale, NOTICE_TEXTS[notice].subject, { who }),
    body: text(locale, NOTICE_TEXTS[notice].body, { who }),
    url: `${homeIn(siteUrl, locale)}dashboard/`,
    tag: `request-${asked.id}`,
  };
}

const pushText = messagesIn('push');

/** What "Send a test notification" sends to each of the subscriber's browsers. */
export function testPushNotification(locale: Locale, siteUrl: string): PushNotification {
  return {
    title: pushText(locale, 'testTitle'),
    body: pushText(locale, 'testBody'),
    url: `${homeIn(siteUrl, locale)}dashboard/`,
    tag: 'test',
  };
}
