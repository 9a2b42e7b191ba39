import { findLure } from '@kabari/rules/lure-check';
import { longDate, messagesIn, messagesOf, type Locale, type LocalizedText, type MessageKey } from '../lib/messages';
import { escapeHtml } from '../lib/escape-html';
import { emailHtml, emailText, paragraphHtml } from '../messages/email-document';

/**
 * The messages that carry a location request. The fixed part names the requester by
 * their display name, says it comes from Kabari on their behalf, carries the consent link and the opt-out link,
 * and cannot be edited; the requester chooses a template and may edit only the personal note. No pretext: the
 * message says what it is (a request to see your location) and that nothing is shared without a yes.
 */

export type MessageChannel = 'sms' | 'email';

export const TEMPLATE_IDS = ['check-in', 'meet-up', 'keep-in-touch'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** An SMS stays within about two segments with the links; an email has room for a few sentences. */
export const NOTE_MAX_LENGTH: Record<MessageChannel, number> = { sms: 80, email: 500 };

/** A request message's text in the message's language (server/src/i18n, section requestMessage). */
const text = messagesIn('requestMessage');

/** Each template's name and default note. */
const TEMPLATES: Record<TemplateId, { name: MessageKey<'requestMessage'>; defaultNote: MessageKey<'requestMessage'> }> =
  {
    'check-in': { name: 'checkInName', defaultNote: 'checkInNote' },
    'meet-up': { name: 'meetUpName', defaultNote: 'meetUpNote' },
    'keep-in-touch': { name: 'keepInTouchName', defaultNote: 'keepInTouchNote' },
  };

export interface TemplateSummary {
  id: TemplateId;
  channel: MessageChannel;
  locale: Locale;
  name: string;
  defaultNote: string;
}

export function listTemplates(channel: MessageChannel, locale: Locale): TemplateSummary[] {
  // An SMS default note fits the SMS limit (checked by a test); the same note serves both channels.
  return TEMPLATE_IDS.map((id) => ({
    id,
    channel,
    locale,
    name: text(locale, TEMPLATES[id].name),
    defaultNote: text(locale, TEMPLATES[id].defaultNote),
  }));
}

export interface MessageLinks {
  consentUrl: string;
  optOutUrl: string;
  /** The consent overview ("Who can see me"): every request to the address, without the link. */
  overviewUrl: string;
}

/**
 * `/enter-link?token=…` (and `/id/enter-link` for Indonesian) on the site's address; opt-out is the same page, and
 * the opt-out part also names `/my-requests`, where every request to the address can be stopped at once.
 */
export function messageLinks(baseUrl: string, locale: Locale, token: string): MessageLinks {
  const prefix = `${baseUrl}${locale === 'id' ? '/id' : ''}`;
  const page = `${prefix}/enter-link?token=${encodeURIComponent(token)}`;
  return { consentUrl: page, optOutUrl: `${page}&action=opt-out`, overviewUrl: `${prefix}/my-requests` };
}

export interface RenderedMessage {
  subject: string | null;
  text: string;
  html: string | null;
}

export interface MessageInput {
  channel: MessageChannel;
  locale: Locale;
  requesterName: string;
  note: string;
  links: MessageLinks;
  expiresAt: Date;
}

/** The exact message the recipient gets. */
export function renderMessage(input: MessageInput): RenderedMessage {
  const { locale, requesterName: name } = input;
  const note = input.note.trim();
  const { consentUrl, optOutUrl, overviewUrl } = input.links;
  if (input.channel === 'sms') {
    const parts = [
      text(locale, 'smsAsk', { name }),
      note ? text(locale, 'smsNote', { note }) : null,
      `${text(locale, 'smsShare')} ${consentUrl}`,
      `${text(locale, 'smsOptOut')} ${optOutUrl}`,
      `${text(locale, 'smsOverview')} ${overviewUrl}`,
    ];
    return { subject: null, text: parts.filter(Boolean).join(' '), html: null };
  }

  const greeting = text(locale, 'greeting');
  const ask = text(locale, 'emailAsk', { name });
  const noteIntro = text(locale, 'emailNote');
  const share = text(locale, 'emailShare');
  const expires = text(locale, 'expires', { date: longDate(input.expiresAt, locale) });
  const optOut = text(locale, 'emailOptOut');
  const overview = text(locale, 'emailOverview');
  const plain = emailText([
    greeting,
    '',
    ask,
    ...(note ? ['', noteIntro, note] : []),
    '',
    share,
    consentUrl,
    expires,
    '',
    optOut,
    optOutUrl,
    '',
    overview,
    overviewUrl,
  ]);
  const html = emailHtml(
    locale,
    [
      paragraphHtml(greeting),
      paragraphHtml(ask),
      ...(note
        ? [paragraphHtml(noteIntro), `<blockquote style="white-space: pre-wrap">${escapeHtml(note)}</blockquote>`]
        : []),
      paragraphHtml(share),
      `<p><a href="${escapeHtml(consentUrl)}">${escapeHtml(consentUrl)}</a></p>`,
      paragraphHtml(expires),
      `<p style="color: #666">${escapeHtml(optOut)} <a href="${escapeHtml(optOutUrl)}">${escapeHtml(optOutUrl)}</a></p>`,
      `<p style="color: #666">${escapeHtml(overview)} <a href="${escapeHtml(overviewUrl)}">${escapeHtml(overviewUrl)}</a></p>`,
    ].join('\n'),
  );
  return { subject: text(locale, 'subject', { name }), text: plain, html };
}

/**
 * A WhatsApp request's template variables: the approved template holds the fixed text, these the parts that vary,
 * worded as the SMS words them (who asks, the consent link, the opt-out line with its links). The personal note is
 * not among them: a template's text is Meta's approved one, and a requester's own words would not be.
 */
export function whatsAppVariables(
  locale: Locale,
  requesterName: string,
  links: MessageLinks,
): { '1': string; '2': string; '3': string } {
  return {
    '1': requesterName,
    '2': links.consentUrl,
    '3': `${text(locale, 'smsOptOut')} ${links.optOutUrl} ${text(locale, 'smsOverview')} ${links.overviewUrl}`,
  };
}

/** The placeholder the preview shows where the link's token goes: the token exists only once the request is sent. */
export const PREVIEW_TOKEN = '…';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Why a personal note cannot be sent, or null when it can. */
const sayNote = messagesOf('requestNote');

/** What is wrong with a note for this channel, in both languages; null when it can be sent. */
export function noteProblem(channel: MessageChannel, note: string): LocalizedText | null {
  const text = note.trim();
  if (text.length > NOTE_MAX_LENGTH[channel])
    return sayNote(channel === 'sms' ? 'smsTooLong' : 'emailTooLong', { max: NOTE_MAX_LENGTH[channel] });
  if (CONTROL_CHARACTERS.test(text) || (channel === 'sms' && /[\r\n]/.test(text))) {
    return sayNote(channel === 'sms' ? 'smsOneLine' : 'unsendable');
  }
  // A note may not carry a link or a number of its own: the only way to answer a request is Kabari's consent link
  // (and its opt-out), so "your account is blocked, call 0812…" cannot ride on it.
  const lure = findLure(text);
  if (lure?.kind === 'link') return sayNote('withLink', { link: shortened(lure.found) });
  if (lure?.kind === 'phone') return sayNote('withPhone', { phone: shortened(lure.found) });
  return null;
}

function shortened(found: string): string {
  return found.length > 40 ? `${found.slice(0, 39)}…` : found;
}
