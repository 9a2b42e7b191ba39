import { defineMessages, waitText, type Locale, type LocalizedText, type MessageParams } from '../lib/messages';

/**
 * What the location-request routes (requests, links) say to people, in both languages. Texts without `{…}` are
 * also what the schemas give zod, so a validation error is answered in the caller's language too.
 */
export const sayRequests = defineMessages(
  {
    subscriptionNeeded: 'Your subscription has expired. Renew it to send location requests.',
    numberOptedOut: 'This number has opted out of location requests. Kabari will not message it.',
    emailOptedOut: 'This email address has opted out of location requests. Kabari will not message it.',
    numberLimited: 'Kabari sends one request to the same number every 3 hours. The next one is possible in {wait}.',
    emailLimited:
      'Kabari sends one request to the same email address every 3 hours. The next one is possible in {wait}.',
    linkLimited: 'You can create one new link every 3 hours. The next one is possible in {wait}.',
    enterTitle: 'Please enter a title',
    titleTooLong: 'The title can be at most 80 characters',
    titleOneLine: 'The title must be on one line',
    chooseChannel: 'channel must be sms or email',
    chooseAnyChannel: 'channel must be sms, email or link',
    chooseLocale: 'locale must be en or id',
    chooseCountry: 'country must be an ISO 3166 alpha-2 code',
    noteNotText: 'note must be text',
    chooseTemplate: 'Please choose one of the message templates',
    smsCountry: 'Kabari sends SMS only to numbers in {countries}. Ask this person by email or with a link instead.',
    smsPerDay:
      "Today's SMS requests are used up: one account can send {limit} a day. The next one is possible in {until}; " +
      'requests by email or link still work.',
    emailPerDay:
      "Today's email requests are used up: one account can send {limit} a day. The next one is possible in {until}.",
    smsBudget:
      'Kabari has sent all the SMS it can send today. SMS requests are possible again in {until}; requests by ' +
      'email or link still work.',
  },
  {
    subscriptionNeeded: 'Langganan Anda sudah berakhir. Perpanjang untuk mengirim permintaan lokasi.',
    numberOptedOut: 'Nomor ini sudah menolak permintaan lokasi. Kabari tidak akan mengirim pesan ke nomor ini.',
    emailOptedOut: 'Alamat email ini sudah menolak permintaan lokasi. Kabari tidak akan mengirim pesan ke alamat ini.',
    numberLimited:
      'Kabari mengirim satu permintaan ke nomor yang sama setiap 3 jam. Permintaan berikutnya bisa dikirim dalam {wait}.',
    emailLimited:
      'Kabari mengirim satu permintaan ke alamat email yang sama setiap 3 jam. Permintaan berikutnya bisa dikirim ' +
      'dalam {wait}.',
    linkLimited: 'Anda bisa membuat satu tautan baru setiap 3 jam. Tautan berikutnya bisa dibuat dalam {wait}.',
    enterTitle: 'Silakan isi judul',
    titleTooLong: 'Judul paling banyak 80 karakter',
    titleOneLine: 'Judul harus satu baris',
    chooseChannel: 'Saluran harus sms atau email',
    chooseAnyChannel: 'Saluran harus sms, email, atau tautan',
    chooseLocale: 'Bahasa harus en atau id',
    chooseCountry: 'Negara harus berupa kode ISO 3166 dua huruf',
    noteNotText: 'Catatan harus berupa teks',
    chooseTemplate: 'Silakan pilih salah satu templat pesan',
    smsCountry:
      'Kabari hanya mengirim SMS ke nomor di {countries}. Mintalah lokasinya lewat email atau tautan sebagai gantinya.',
    smsPerDay:
      'Jatah permintaan lewat SMS hari ini sudah habis: satu akun bisa mengirim {limit} per hari. Permintaan ' +
      'berikutnya bisa dikirim dalam {until}; permintaan lewat email atau tautan tetap bisa.',
    emailPerDay:
      'Jatah permintaan lewat email hari ini sudah habis: satu akun bisa mengirim {limit} per hari. Permintaan ' +
      'berikutnya bisa dikirim dalam {until}.',
    smsBudget:
      'Kabari sudah mengirim semua SMS yang bisa dikirim hari ini. Permintaan lewat SMS bisa dikirim lagi dalam ' +
      '{until}; permintaan lewat email atau tautan tetap bisa.',
  },
);

/** A wait of hours in words ("7 hours 5 minutes", "7 jam 5 menit"); under 90 minutes, as waitText says it. */
export function hoursText(seconds: number, locale: Locale): string {
  if (seconds < 90 * 60) return waitText(seconds, locale);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds - hours * 3600) / 60);
  if (locale === 'id') return minutes > 0 ? `${hours} jam ${minutes} menit` : `${hours} jam`;
  const hourWord = hours === 1 ? 'hour' : 'hours';
  if (minutes === 0) return `${hours} ${hourWord}`;
  return `${hours} ${hourWord} ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** A refusal whose parameters read differently in each language (a wait in hours, country names). */
export function sayRequestsIn(
  key: Parameters<typeof sayRequests>[0],
  params: (locale: Locale) => MessageParams,
): LocalizedText {
  return { en: sayRequests(key, params('en')).en, id: sayRequests(key, params('id')).id };
}
