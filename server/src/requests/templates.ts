import type { Locale } from '../lib/messages';
import { findLink } from '../lib/link-detector';
import { messagesOf, type LocalizedText } from '../lib/messages';
import { escapeHtml } from '../lib/escape-html';

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

interface TemplateText {
  name: string;
  defaultNote: string;
}

const TEMPLATES: Record<TemplateId, Record<Locale, TemplateText>> = {
  'check-in': {
    en: { name: 'Check in', defaultNote: 'Just checking that you got there safely.' },
    id: { name: 'Kabari aku', defaultNote: 'Cuma mau memastikan kamu sudah sampai dengan selamat.' },
  },
  'meet-up': {
    en: { name: 'Meeting up', defaultNote: 'Share where you are so we can find each other.' },
    id: { name: 'Ketemuan', defaultNote: 'Bagikan lokasimu supaya kita bisa saling ketemu.' },
  },
  'keep-in-touch': {
    en: { name: 'Family', defaultNote: 'I would feel better knowing where you are today.' },
    id: { name: 'Keluarga', defaultNote: 'Aku akan lebih tenang kalau tahu kamu di mana hari ini.' },
  },
};

export interface TemplateSummary {
  id: TemplateId;
  channel: MessageChannel;
  locale: Locale;
  name: string;
  defaultNote: string;
}

export function listTemplates(channel: MessageChannel, locale: Locale): TemplateSummary[] {
  return TEMPLATE_IDS.map((id) => {
    const text = TEMPLATES[id][locale];
    // An SMS default note fits the SMS limit (checked by a test); the same note serves both channels.
    return { id, channel, locale, name: text.name, defaultNote: text.defaultNote };
  });
}

export interface MessageLinks {
  consentUrl: string;
  optOutUrl: string;
}

/** `/enter-link?token=…` (and `/id/enter-link` for Indonesian) on the site's address; opt-out is the same page. */
export function messageLinks(baseUrl: string, locale: Locale, token: string): MessageLinks {
  const page = `${baseUrl}${locale === 'id' ? '/id' : ''}/enter-link?token=${encodeURIComponent(token)}`;
  return { consentUrl: page, optOutUrl: `${page}&action=opt-out` };
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

const WORDS = {
  en: {
    smsAsk: (name: string) => `Kabari: ${name} asks to see your location.`,
    smsNote: (note: string) => `Note: "${note}"`,
    smsShare: 'Share or decline:',
    smsOptOut: 'Stop all requests:',
    subject: (name: string) => `${name} asks to see your location`,
    greeting: 'Hello,',
    emailAsk: (name: string) =>
      `${name} uses Kabari and asks you to share your location with them. Kabari sends this on their behalf; ` +
      'it does not come from their own address.',
    emailNote: 'Their note to you:',
    emailShare:
      'Open this link to see who is asking and choose Share or Decline. Nothing about you is recorded unless you ' +
      'press Share, and you can stop sharing at any time from the same link.',
    expires: (date: string) => `The link expires on ${date}.`,
    emailOptOut: 'Did not expect this, or do not want requests like this? Stop all future requests to this address:',
    signature: 'Kabari',
  },
  id: {
    smsAsk: (name: string) => `Kabari: ${name} ingin melihat lokasi Anda.`,
    smsNote: (note: string) => `Pesan: "${note}"`,
    smsShare: 'Bagikan atau tolak:',
    smsOptOut: 'Tolak semua permintaan:',
    subject: (name: string) => `${name} ingin melihat lokasi Anda`,
    greeting: 'Halo,',
    emailAsk: (name: string) =>
      `${name} memakai Kabari dan meminta Anda membagikan lokasi kepadanya. Kabari mengirim email ini atas ` +
      'namanya; email ini tidak dikirim dari alamatnya sendiri.',
    emailNote: 'Pesan darinya untuk Anda:',
    emailShare:
      'Buka tautan ini untuk melihat siapa yang meminta, lalu pilih Bagikan atau Tolak. Tidak ada data tentang ' +
      'Anda yang dicatat sebelum Anda menekan Bagikan, dan Anda bisa berhenti berbagi kapan saja lewat tautan yang sama.',
    expires: (date: string) => `Tautan berlaku sampai ${date}.`,
    emailOptOut:
      'Tidak merasa mengenal permintaan ini, atau tidak ingin menerima permintaan seperti ini? Hentikan semua ' +
      'permintaan berikutnya ke alamat ini:',
    signature: 'Kabari',
  },
} as const;

function formatDate(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(date);
}

/** The exact message the recipient gets. */
export function renderMessage(input: MessageInput): RenderedMessage {
  const t = WORDS[input.locale];
  const note = input.note.trim();
  const { consentUrl, optOutUrl } = input.links;
  if (input.channel === 'sms') {
    const parts = [t.smsAsk(input.requesterName), note ? t.smsNote(note) : null, `${t.smsShare} ${consentUrl}`];
    parts.push(`${t.smsOptOut} ${optOutUrl}`);
    return { subject: null, text: parts.filter(Boolean).join(' '), html: null };
  }

  const expires = t.expires(formatDate(input.expiresAt, input.locale));
  const text = [
    t.greeting,
    '',
    t.emailAsk(input.requesterName),
    ...(note ? ['', t.emailNote, note] : []),
    '',
    t.emailShare,
    consentUrl,
    expires,
    '',
    t.emailOptOut,
    optOutUrl,
    '',
    `— ${t.signature}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="${input.locale}"><body style="font-family: sans-serif; line-height: 1.5">
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.emailAsk(input.requesterName))}</p>
${note ? `<p>${escapeHtml(t.emailNote)}</p>\n<blockquote style="white-space: pre-wrap">${escapeHtml(note)}</blockquote>` : ''}
<p>${escapeHtml(t.emailShare)}</p>
<p><a href="${escapeHtml(consentUrl)}">${escapeHtml(consentUrl)}</a></p>
<p>${escapeHtml(expires)}</p>
<p style="color: #666">${escapeHtml(t.emailOptOut)} <a href="${escapeHtml(optOutUrl)}">${escapeHtml(optOutUrl)}</a></p>
<p>— ${escapeHtml(t.signature)}</p>
</body></html>`;
  return { subject: t.subject(input.requesterName), text, html };
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
  // A note may not carry a link of its own: the only links in a request are Kabari's consent and opt-out links.
  const link = findLink(text);
  if (link) return sayNote('withLink', { link: link.length > 40 ? `${link.slice(0, 39)}…` : link });
  return null;
}
