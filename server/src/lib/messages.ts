import type { FastifyRequest } from 'fastify';
import i18next from 'i18next';
import en from '../i18n/api.en.json';
import id from '../i18n/api.id.json';

/**
 * What the server says to people, in both languages: i18next resources in `src/i18n/api.<language>.json`, one
 * section per part of the server, the emails and the request messages among them (`billingEmail`, `accountEmail`,
 * `requestMessage`). A part takes its section's texts with `messagesOf('section')` (keys typed from the English
 * file, so a wrong key fails the type-check); an error is thrown as `new HttpError(status, say('key', params))`;
 * the error handler answers in the caller's language (the app sends `Accept-Language` with every call). The
 * English text is also the error's own message, so logs stay in one language.
 *
 * `{{wait, wait}}` is a number of seconds, written out as "5 minutes" / "5 menit"; any other `{{name}}` is put in
 * as it is. Both files have the same keys and the same placeholders text by text (the translations test).
 */
/** The languages Kabari speaks; also the values of every `locale` column (db/column-values.ts). */
export const LOCALES = ['en', 'id'] as const;
export type Locale = (typeof LOCALES)[number];
export type MessageParams = Record<string, string | number>;
/** A text in both languages, ready to send. */
export type LocalizedText = Readonly<Record<Locale, string>>;

type Catalogue = typeof en;
export type MessageSection = keyof Catalogue;
/** A text's key in its section. */
export type MessageKey<S extends MessageSection> = keyof Catalogue[S] & string;
/** A text's full key, `section.key`: what a schema gives zod as its message. */
export type InputMessageKey = { [S in MessageSection]: `${S}.${MessageKey<S>}` }[MessageSection];

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { api: en }, id: { api: id } },
  ns: ['api'],
  defaultNS: 'api',
  fallbackLng: 'en',
  // Loaded from the imports above: ready when this module is.
  initAsync: false,
  // The texts go into JSON answers, emails, SMS and pages that escape them where they are put in.
  interpolation: { escapeValue: false },
});

/**
 * The time zone of the days our emails, texts and pushes name: Jakarta's (WIB, UTC+7), whatever the reader's
 * language. Kabari is for Indonesian families first, and a day named in UTC was the day before for any moment after
 * 17:00 in Indonesia. WITA and WIT run an hour or two ahead of WIB, so only a moment after 22:00 WIB can name the day
 * before there.
 */
export const MESSAGE_TIME_ZONE = 'Asia/Jakarta';

const longDates: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: MESSAGE_TIME_ZONE }),
  id: new Intl.DateTimeFormat('id-ID', { dateStyle: 'long', timeZone: MESSAGE_TIME_ZONE }),
};

/** A day as our messages write it: "6 December 2026", "6 Desember 2026". */
export function longDate(moment: Date, locale: Locale): string {
  return longDates[locale].format(moment);
}

/** A wait in seconds, in words: minutes from 90 seconds up. */
export function waitText(seconds: number, locale: Locale = 'en'): string {
  const key = seconds >= 90 ? 'common.waitMinutes' : seconds === 1 ? 'common.waitSecond' : 'common.waitSeconds';
  return i18n.t(key, { seconds, minutes: Math.ceil(seconds / 60), lng: locale });
}

i18n.services.formatter?.add('wait', (value: unknown, lng: string | undefined) =>
  waitText(Number(value), lng === 'id' ? 'id' : 'en'),
);

function render(key: string, params: MessageParams): LocalizedText {
  return { en: i18n.t(key, { ...params, lng: 'en' }), id: i18n.t(key, { ...params, lng: 'id' }) };
}

/** The texts of one section, in both languages. */
export function messagesOf<S extends MessageSection>(
  section: S,
): (key: MessageKey<S>, params?: MessageParams) => LocalizedText {
  return (key, params = {}) => render(`${section}.${key}`, params);
}

/**
 * The texts of one section in one language: for what is written to one reader (an email, an SMS) in their own
 * language.
 */
export function messagesIn<S extends MessageSection>(
  section: S,
): (locale: Locale, key: MessageKey<S>, params?: MessageParams) => string {
  return (locale, key, params = {}) => i18n.t(`${section}.${key}`, { ...params, lng: locale });
}

/** The text of a full key (`section.key`) in both languages. */
export function textOf(key: InputMessageKey, params: MessageParams = {}): LocalizedText {
  return render(key, params);
}

/** Whether `key` names a text of `section` (a provider's code, say, that may have a text of ours). */
export function isMessageKey<S extends MessageSection>(section: S, key: string): key is MessageKey<S> {
  return Object.hasOwn(en[section], key);
}

/** Schema messages by key, with the parameters their schema gave them. */
const inputMessages = new Map<string, LocalizedText>();

/**
 * A schema's message for zod: the text's key (`contact.nameTooLong`). The error handler answers with the text in
 * the caller's language; the parameters are the schema's own limits, the same for every request.
 */
export function inputMessage(key: InputMessageKey, params: MessageParams = {}): string {
  const text = textOf(key, params);
  const known = inputMessages.get(key);
  if (known && known.en !== text.en) throw new Error(`input message ${key} is used with two sets of parameters`);
  inputMessages.set(key, text);
  return key;
}

/** The text of a schema's message (see inputMessage), or undefined for a validator's own words. */
export function inputMessageText(message: string): LocalizedText | undefined {
  return inputMessages.get(message);
}

/** The caller's language from its Accept-Language header (the app sends its page's language). */
export function requestLocale(request: Pick<FastifyRequest, 'headers'>, fallback: Locale = 'en'): Locale {
  const accepted = request.headers['accept-language'];
  if (!accepted) return fallback;
  const first = accepted.split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('id') || first.startsWith('in')) return 'id';
  if (first.startsWith('en')) return 'en';
  return fallback;
}

/** Texts every part of the API uses. */
export const sayCommon = messagesOf('common');
