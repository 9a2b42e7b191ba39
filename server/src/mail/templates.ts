import type { Locale } from '../auth/users';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const RESET_CODE = {
  en: {
    subject: 'Your Kabari password reset code',
    greeting: (name: string) => `Hello ${name},`,
    intro: 'Your verification code is:',
    use: 'Enter it in Kabari to choose a new password. It expires in 10 minutes and works only once.',
    ignore: 'If you did not ask to reset your password, ignore this email: your password stays as it is.',
    signature: 'Kabari',
  },
  id: {
    subject: 'Kode reset kata sandi Kabari Anda',
    greeting: (name: string) => `Halo ${name},`,
    intro: 'Kode verifikasi Anda:',
    use: 'Masukkan kode ini di Kabari untuk membuat kata sandi baru. Kode berlaku 10 menit dan hanya dapat dipakai sekali.',
    ignore: 'Jika Anda tidak meminta reset kata sandi, abaikan email ini: kata sandi Anda tidak berubah.',
    signature: 'Kabari',
  },
} as const;

export function resetCodeEmail(locale: Locale, displayName: string, code: string): RenderedEmail {
  const t = RESET_CODE[locale];
  const text = [
    t.greeting(displayName),
    '',
    `${t.intro} ${code}`,
    '',
    t.use,
    '',
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
<p style="color: #666">${escapeHtml(t.ignore)}</p>
<p>— ${escapeHtml(t.signature)}</p>
</body></html>`;
  return { subject: t.subject, text, html };
}
