import type { FastifyRequest } from 'fastify';

/**
 * What the API says to people, in both languages. Each part of the server defines its texts with
 * `defineMessages(en, id)` (the `id` catalogue is typed from the English one, so a missing key fails the
 * type-check) and throws `new HttpError(status, say('key', params))`; the error handler answers in the caller's
 * language (the app sends `Accept-Language` with every call). The English text is also the error's own message,
 * so logs stay in one language.
 *
 * `{wait}` is a number of seconds, written out as "5 minutes" / "5 menit"; any other `{name}` is put in as it is.
 */
/** The languages Kabari speaks; also the values of every `locale` column (db/column-values.ts). */
export const LOCALES = ['en', 'id'] as const;
export type Locale = (typeof LOCALES)[number];
export type MessageParams = Record<string, string | number>;
/** A text in both languages, ready to send. */
export type LocalizedText = Readonly<Record<Locale, string>>;

/** A wait in seconds, in words: minutes from 90 seconds up. */
export function waitText(seconds: number, locale: Locale = 'en'): string {
  const minutes = Math.ceil(seconds / 60);
  if (locale === 'id') return seconds >= 90 ? `${minutes} menit` : `${seconds} detik`;
  if (seconds >= 90) return `${minutes} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

function render(locale: Locale, template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return name === 'wait' ? waitText(Number(value), locale) : String(value);
  });
}

/** English texts without parameters → both languages: schema messages are written in English and found here. */
const byEnglish = new Map<string, LocalizedText>();

/** The `{name}` parameters a text fills in, each once, sorted. */
function parametersOf(template: string): string {
  return [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort().join(', ');
}

export function defineMessages<K extends string>(
  en: Record<K, string>,
  id: NoInfer<Record<K, string>>,
): (key: K, params?: MessageParams) => LocalizedText {
  for (const key of Object.keys(en) as K[]) {
    // A parameter missing from one language would reach a person as "{name}": refused when the module loads,
    // so every test (and the server's start) fails on it.
    if (parametersOf(en[key]) !== parametersOf(id[key]))
      throw new Error(
        `message ${key}: English fills in {${parametersOf(en[key])}}, Indonesian {${parametersOf(id[key])}}`,
      );
    if (!/\{\w+\}/.test(en[key])) byEnglish.set(en[key], { en: en[key], id: id[key] });
  }
  return (key, params = {}) => ({ en: render('en', en[key], params), id: render('id', id[key], params) });
}

/** Both languages of an English text some catalogue defines (a schema's message), if any does. */
export function knownText(english: string): LocalizedText | undefined {
  return byEnglish.get(english);
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
export const sayCommon = defineMessages(
  {
    tooManyRequests: 'Too many requests. Please try again in {wait}.',
    tooManyAttempts: 'Too many attempts. Please try again in {wait}.',
    tooManyFromNetwork: 'Too many requests from this network. Please try again in {wait}.',
    loginExpired: 'Login expired, please log in again.',
    invalidField: 'The field "{field}" is not valid.',
    invalidRequest: 'The request {where} is missing or is not a JSON object',
    invalidCode: 'The verification code is incorrect or has expired.',
    enterCode: 'Please enter the verification code we emailed you.',
    wrongPassword: 'The password is incorrect.',
    emailInUse: 'This email address is already in use',
    enterEmail: 'Please enter your email address',
    enterValidEmail: 'Enter valid email address',
    enterNumber: 'Please enter a number',
    enterValidMobile: 'Please enter a valid mobile number',
    fillInName: 'Please fill in your name',
    passwordLength: 'The password must be {min} to {max} characters long.',
    commonPassword: 'This password is one of the most common ones, so it is easy to guess. Please choose another.',
    requestNotFound: 'Request not found.',
    notFound: 'Not found: {method} {path}',
    serverError: 'Internal Server Error',
  },
  {
    tooManyRequests: 'Terlalu banyak permintaan. Silakan coba lagi dalam {wait}.',
    tooManyAttempts: 'Terlalu banyak percobaan. Silakan coba lagi dalam {wait}.',
    tooManyFromNetwork: 'Terlalu banyak permintaan dari jaringan ini. Silakan coba lagi dalam {wait}.',
    loginExpired: 'Sesi login Anda sudah berakhir. Silakan login kembali.',
    invalidField: 'Isian "{field}" tidak valid.',
    invalidRequest: 'Isi permintaan ({where}) kosong atau bukan objek JSON.',
    invalidCode: 'Kode verifikasi salah atau sudah kedaluwarsa.',
    enterCode: 'Silakan masukkan kode verifikasi yang kami kirim lewat email.',
    wrongPassword: 'Kata sandi salah.',
    emailInUse: 'Alamat email ini sudah digunakan',
    enterEmail: 'Silakan masukkan alamat email Anda',
    enterValidEmail: 'Masukkan alamat email yang valid',
    enterNumber: 'Silakan masukkan nomor',
    enterValidMobile: 'Silakan masukkan nomor ponsel yang valid',
    fillInName: 'Silakan isi nama Anda',
    passwordLength: 'Kata sandi harus terdiri dari {min} sampai {max} karakter.',
    commonPassword:
      'Kata sandi ini termasuk yang paling umum dipakai sehingga mudah ditebak. Silakan pilih kata sandi lain.',
    requestNotFound: 'Permintaan tidak ditemukan.',
    notFound: 'Tidak ditemukan: {method} {path}',
    serverError: 'Terjadi kesalahan pada server',
  },
);
