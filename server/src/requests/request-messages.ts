import { defineMessages } from '../lib/messages';

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
  },
);
