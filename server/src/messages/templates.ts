import type { RequestChannel, RequesterNotice } from '../db/column-values';
import type { Locale } from '../lib/messages';
import { escapeHtml } from '../lib/escape-html';

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
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((line) => [line, '']),
    ...(link ? [link.text, link.url, ''] : []),
    '— Kabari',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
${paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
${link ? `<p>${escapeHtml(link.text)} <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>\n` : ''}<p>— Kabari</p>
</body></html>`;
  return { subject, text, html };
}

const RESET_CODE = {
  en: {
    subject: 'Your Kabari password reset code',
    greeting: (name: string) => `Hello ${name},`,
    intro: 'Your verification code is:',
    use: 'Enter it in Kabari to choose a new password. It expires in 10 minutes and works only once.',
    where: 'Enter it only on Kabari, at this address:',
    ignore: 'If you did not ask to reset your password, ignore this email: your password stays as it is.',
    signature: 'Kabari',
  },
  id: {
    subject: 'Kode reset kata sandi Kabari Anda',
    greeting: (name: string) => `Halo ${name},`,
    intro: 'Kode verifikasi Anda:',
    use: 'Masukkan kode ini di Kabari untuk membuat kata sandi baru. Kode berlaku 10 menit dan hanya dapat dipakai sekali.',
    where: 'Masukkan kode ini hanya di Kabari, di alamat berikut:',
    ignore: 'Jika Anda tidak meminta reset kata sandi, abaikan email ini: kata sandi Anda tidak berubah.',
    signature: 'Kabari',
  },
} as const;

/**
 * `siteUrl` is the configured public address (PUBLIC_URL), never one taken from a request: the email says where
 * the code belongs, so a look-alike site asking for it stands out.
 */
export function resetCodeEmail(locale: Locale, displayName: string, code: string, siteUrl: string): RenderedEmail {
  const link = { text: RESET_CODE[locale].where, url: `${siteUrl}${locale === 'id' ? '/id' : ''}/` };
  return codeEmail(locale, RESET_CODE[locale], displayName, code, link);
}

const EMAIL_CHANGE_CODE = {
  en: {
    subject: 'Confirm your new Kabari email address',
    greeting: (name: string) => `Hello ${name},`,
    intro: 'To use this address for your Kabari account, enter this code:',
    use: 'It expires in 10 minutes and works only once. Until you enter it, your account keeps its current address.',
    ignore: 'If you did not ask for this, ignore this email: nothing changes.',
    signature: 'Kabari',
  },
  id: {
    subject: 'Konfirmasi alamat email baru Kabari Anda',
    greeting: (name: string) => `Halo ${name},`,
    intro: 'Untuk memakai alamat ini di akun Kabari Anda, masukkan kode berikut:',
    use: 'Kode berlaku 10 menit dan hanya dapat dipakai sekali. Sebelum kode dimasukkan, akun Anda tetap memakai alamat yang sekarang.',
    ignore: 'Jika Anda tidak memintanya, abaikan email ini: tidak ada yang berubah.',
    signature: 'Kabari',
  },
} as const;

/** Sent to the NEW address: the code that proves it belongs to the subscriber. */
export function emailChangeCodeEmail(locale: Locale, displayName: string, code: string): RenderedEmail {
  return codeEmail(locale, EMAIL_CHANGE_CODE[locale], displayName, code);
}

interface CodeEmailText {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  use: string;
  ignore: string;
  signature: string;
}

/**
 * An email whose point is a 6-digit code: the code large, what it is for, where to enter it (`link`, when given)
 * and what to do if it was not you.
 */
function codeEmail(
  locale: Locale,
  t: CodeEmailText,
  displayName: string,
  code: string,
  link?: { text: string; url: string },
): RenderedEmail {
  const text = [
    t.greeting(displayName),
    '',
    `${t.intro} ${code}`,
    '',
    t.use,
    '',
    ...(link ? [link.text, link.url, ''] : []),
    t.ignore,
    '',
    `— ${t.signature}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">
<p>${escapeHtml(t.greeting(displayName))}</p>
<p>${escapeHtml(t.intro)}</p>
<p style="font-size: 28px; font-weight: bold; letter-spacing: 4px">${escapeHtml(code)}</p>
<p>${escapeHtml(t.use)}</p>
${link ? `<p>${escapeHtml(link.text)} <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>\n` : ''}<p style="color: #666">${escapeHtml(t.ignore)}</p>
<p>— ${escapeHtml(t.signature)}</p>
</body></html>`;
  return { subject: t.subject, text, html };
}

/** "b•••@example.com": enough for the owner to recognise, not the whole address in a mailbox they may have lost. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

const EMAIL_CHANGED = {
  en: {
    subject: 'Your Kabari email address was changed',
    greeting: (name: string) => `Hello ${name},`,
    changed: (masked: string) =>
      `The email address of your Kabari account was changed to ${masked}. From now on we write to that address, and you sign in with it.`,
    notYou:
      'If you did not make this change, someone may know your password: write to us at once through the Contact us page on Kabari.',
  },
  id: {
    subject: 'Alamat email Kabari Anda telah diubah',
    greeting: (name: string) => `Halo ${name},`,
    changed: (masked: string) =>
      `Alamat email akun Kabari Anda telah diubah menjadi ${masked}. Mulai sekarang kami mengirim email ke alamat itu, dan Anda masuk dengan alamat itu.`,
    notYou:
      'Jika Anda tidak melakukan perubahan ini, mungkin ada orang lain yang mengetahui kata sandi Anda: segera hubungi kami melalui halaman Hubungi kami di Kabari.',
  },
} as const;

/** Sent to the OLD address once the change is made, so a takeover does not go unnoticed. */
export function emailChangedEmail(locale: Locale, displayName: string, newEmail: string): RenderedEmail {
  const t = EMAIL_CHANGED[locale];
  return letter(locale, {
    subject: t.subject,
    greeting: t.greeting(displayName),
    paragraphs: [t.changed(maskedEmail(newEmail)), t.notYou],
  });
}

const PASSWORD_CHANGED = {
  en: {
    subject: 'Your Kabari password was changed',
    greeting: (name: string) => `Hello ${name},`,
    how: {
      reset: 'The password of your Kabari account was just changed with a reset code sent to this address.',
      account: 'The password of your Kabari account was just changed in your account settings.',
    },
    signedOut: 'Every other device signed in to your account was signed out.',
    notYou:
      'If you did not make this change, set a new password at once with “Forgot password?” in the login dialog, and write to us through the Contact us page on Kabari.',
  },
  id: {
    subject: 'Kata sandi Kabari Anda telah diganti',
    greeting: (name: string) => `Halo ${name},`,
    how: {
      reset: 'Kata sandi akun Kabari Anda baru saja diganti dengan kode reset yang dikirim ke alamat ini.',
      account: 'Kata sandi akun Kabari Anda baru saja diganti melalui pengaturan akun.',
    },
    signedOut: 'Semua perangkat lain yang masuk ke akun Anda sudah dikeluarkan.',
    notYou:
      'Jika Anda tidak melakukan perubahan ini, segera buat kata sandi baru lewat “Lupa kata sandi?” di jendela masuk, lalu hubungi kami melalui halaman Hubungi kami di Kabari.',
  },
} as const;

/**
 * Sent to the account's address, in the account's language, whenever its password changes (by a reset code or in
 * the account settings), so that a change the owner did not make does not go unnoticed.
 */
export function passwordChangedEmail(locale: Locale, displayName: string, how: 'reset' | 'account'): RenderedEmail {
  const t = PASSWORD_CHANGED[locale];
  return letter(locale, {
    subject: t.subject,
    greeting: t.greeting(displayName),
    paragraphs: [t.how[how], t.signedOut, t.notYou],
  });
}

const REQUESTER_NOTICE = {
  en: {
    subject: {
      shared: (who: string) => `${who} is sharing their location with you`,
      declined: (who: string) => `${who} declined your location request`,
      stopped: (who: string) => `${who} stopped sharing their location`,
      withdrawn: (who: string) => `${who} withdrew their consent`,
      live_ended: (who: string) => `${who}’s live location sharing has ended`,
    },
    body: {
      shared: (who: string) => `${who} agreed to your Kabari request and shared their location.`,
      declined: (who: string) =>
        `${who} chose not to share their location. Kabari will not ask them again through this request.`,
      stopped: (who: string) =>
        `${who} stopped sharing their location. What they shared before stays on your dashboard.`,
      withdrawn: (who: string) =>
        `${who} stopped sharing and erased what they had shared through this request: it is no longer on your dashboard.`,
      live_ended: (who: string) =>
        `The live sharing ${who} turned on has ended, at the time they chose. Their last position stays on your dashboard.`,
    },
    greeting: (name: string) => `Hello ${name},`,
    dashboard: 'Your dashboard:',
    settings: 'You can turn these emails off in My subscription, under Account.',
    link: (title: string) => `“${title}” (your link)`,
    untitledLink: 'The person you sent your link to',
  },
  id: {
    subject: {
      shared: (who: string) => `${who} membagikan lokasinya kepada Anda`,
      declined: (who: string) => `${who} menolak permintaan lokasi Anda`,
      stopped: (who: string) => `${who} berhenti membagikan lokasinya`,
      withdrawn: (who: string) => `${who} menarik persetujuannya`,
      live_ended: (who: string) => `Berbagi lokasi langsung dari ${who} telah berakhir`,
    },
    body: {
      shared: (who: string) => `${who} menyetujui permintaan Kabari Anda dan membagikan lokasinya.`,
      declined: (who: string) =>
        `${who} memilih untuk tidak membagikan lokasinya. Kabari tidak akan memintanya lagi lewat permintaan ini.`,
      stopped: (who: string) =>
        `${who} berhenti membagikan lokasinya. Lokasi yang sudah dibagikan tetap ada di dasbor Anda.`,
      withdrawn: (who: string) =>
        `${who} berhenti berbagi dan menghapus semua yang sudah dibagikan lewat permintaan ini: semuanya tidak lagi ada di dasbor Anda.`,
      live_ended: (who: string) =>
        `Berbagi lokasi langsung yang dinyalakan ${who} telah berakhir, pada waktu yang ia pilih. Posisi terakhirnya tetap ada di dasbor Anda.`,
    },
    greeting: (name: string) => `Halo ${name},`,
    dashboard: 'Dasbor Anda:',
    settings: 'Anda bisa mematikan email seperti ini di Langganan Saya, bagian Akun.',
    link: (title: string) => `“${title}” (tautan Anda)`,
    untitledLink: 'Orang yang menerima tautan Anda',
  },
} as const;

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
  const t = REQUESTER_NOTICE[locale];
  const who =
    asked.channel === 'link' ? (asked.title ? t.link(asked.title) : t.untitledLink) : (asked.target ?? t.untitledLink);
  return letter(locale, {
    subject: t.subject[notice](who),
    greeting: t.greeting(displayName),
    paragraphs: [t.body[notice](who), t.settings],
    link: { text: t.dashboard, url: `${siteUrl}${locale === 'id' ? '/id' : ''}/dashboard/` },
  });
}
