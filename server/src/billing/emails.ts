import type { RenderedEmail } from '../messages/templates';
import type { Locale } from '../lib/messages';
import { formatMoney } from './money';
import { escapeHtml } from '../lib/escape-html';

function render(locale: Locale, subject: string, paragraphs: string[]): RenderedEmail {
  const text = [...paragraphs, '', '— Kabari'].join('\n\n');
  const html = `<!doctype html>
<html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
<p>— Kabari</p>
</body></html>`;
  return { subject, text, html };
}

function day(moment: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(moment);
}

const hello = (locale: Locale, name: string) => (locale === 'id' ? `Halo ${name},` : `Hello ${name},`);

export interface ChargeFacts {
  displayName: string;
  amount: number;
  currency: string;
  kind: 'first_day' | 'renewal';
  paidAt: Date;
  paymentId: string;
  method: string;
  validUntil: Date;
  nextAmount: number;
  sandbox: boolean;
  /** The account's password was not chosen at sign-up: say how to set it. */
  needsPassword?: boolean;
}

const howToCancel = {
  en: 'You can cancel at any time from My subscription in your dashboard; you keep access until the paid period ends.',
  id: 'Anda dapat berhenti berlangganan kapan saja dari menu Langganan saya di dasbor; akses tetap berlaku sampai periode yang sudah dibayar berakhir.',
};

const sandboxNote = {
  en: 'This payment was made in the sandbox: no real money was charged.',
  id: 'Pembayaran ini dilakukan di sandbox: tidak ada uang sungguhan yang ditagih.',
};

/** The receipt for every successful charge. */
export function receiptEmail(locale: Locale, facts: ChargeFacts): RenderedEmail {
  const paid = formatMoney(facts.amount, facts.currency, locale);
  const next = formatMoney(facts.nextAmount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, `Tanda terima Kabari: ${paid}`, [
      hello(locale, facts.displayName),
      facts.kind === 'first_day'
        ? `Terima kasih telah berlangganan Kabari. Kami telah menerima pembayaran hari pertama sebesar ${paid}.`
        : `Langganan Kabari Anda telah diperpanjang. Kami telah menerima pembayaran sebesar ${paid}.`,
      `Tanggal: ${day(facts.paidAt, locale)} · Metode: ${facts.method} · Nomor tanda terima: ${facts.paymentId}`,
      `Akses Anda berlaku sampai ${day(facts.validUntil, locale)}. Setelah itu langganan diperpanjang otomatis sebesar ${next}, kecuali Anda membatalkannya.`,
      howToCancel.id,
      ...(facts.needsPassword
        ? [
            'Untuk masuk dari perangkat lain, buat kata sandi: klik "Lupa kata sandi" di Kabari, masukkan alamat email ini, lalu ikuti kode yang kami kirim.',
          ]
        : []),
      ...(facts.sandbox ? [sandboxNote.id] : []),
    ]);
  }
  return render(locale, `Your Kabari receipt: ${paid}`, [
    hello(locale, facts.displayName),
    facts.kind === 'first_day'
      ? `Thank you for subscribing to Kabari. We received your first-day payment of ${paid}.`
      : `Your Kabari subscription has been renewed. We received your payment of ${paid}.`,
    `Date: ${day(facts.paidAt, locale)} · Method: ${facts.method} · Receipt number: ${facts.paymentId}`,
    `Your access is paid until ${day(facts.validUntil, locale)}. After that the subscription renews automatically at ${next} unless you cancel.`,
    howToCancel.en,
    ...(facts.needsPassword
      ? [
          'To sign in on another device, set a password: choose "Forgot password" in Kabari, enter this email address and follow the code we send you.',
        ]
      : []),
    ...(facts.sandbox ? [sandboxNote.en] : []),
  ]);
}

/** Sent before each renewal; `byHand`: nothing is charged automatically (PayPal without a saved account). */
export function renewalReminderEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; renewsAt: Date; byHand?: boolean },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (facts.byHand) {
    if (locale === 'id') {
      return render(locale, `Langganan Kabari Anda berakhir pada ${day(facts.renewsAt, locale)}`, [
        hello(locale, facts.displayName),
        `Langganan Kabari Anda dibayar lewat PayPal dan tidak diperpanjang otomatis. Langganan berakhir pada ${day(facts.renewsAt, locale)}.`,
        `Untuk melanjutkan, masuk ke Kabari setelah tanggal tersebut dan bayar ${amount} lagi lewat PayPal di jendela langganan berakhir.`,
      ]);
    }
    return render(locale, `Your Kabari subscription ends on ${day(facts.renewsAt, locale)}`, [
      hello(locale, facts.displayName),
      `Your Kabari subscription was paid with PayPal and does not renew automatically. It ends on ${day(facts.renewsAt, locale)}.`,
      `To continue, sign in to Kabari after that date and pay ${amount} again with PayPal in the subscription-expired window.`,
    ]);
  }
  if (locale === 'id') {
    return render(locale, `Langganan Kabari Anda diperpanjang pada ${day(facts.renewsAt, locale)}`, [
      hello(locale, facts.displayName),
      `Langganan Kabari Anda akan diperpanjang otomatis pada ${day(facts.renewsAt, locale)} dan kami akan menagih ${amount}.`,
      `Jika tidak ingin melanjutkan, batalkan sebelum tanggal tersebut. ${howToCancel.id}`,
    ]);
  }
  return render(locale, `Your Kabari subscription renews on ${day(facts.renewsAt, locale)}`, [
    hello(locale, facts.displayName),
    `Your Kabari subscription renews automatically on ${day(facts.renewsAt, locale)} and we will charge ${amount}.`,
    `If you do not want to continue, cancel before that date. ${howToCancel.en}`,
  ]);
}

/** A PayPal subscription PayPal did not save for renewals has reached its end: nothing was charged. */
export function renewByHandEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, 'Langganan Kabari Anda telah berakhir: perpanjang lewat PayPal', [
      hello(locale, facts.displayName),
      'Langganan Kabari Anda dibayar lewat PayPal, dan PayPal tidak menyimpan akun Anda untuk perpanjangan otomatis, jadi tidak ada biaya yang ditagih.',
      `Untuk melanjutkan, masuk ke Kabari dan bayar ${amount} di jendela langganan berakhir.`,
    ]);
  }
  return render(locale, 'Your Kabari subscription has ended: renew with PayPal', [
    hello(locale, facts.displayName),
    'Your Kabari subscription was paid with PayPal, and PayPal did not save your account for automatic renewals, so nothing was charged.',
    `To continue, sign in to Kabari and pay ${amount} in the subscription-expired window.`,
  ]);
}

/** A renewal charge failed: the subscription has ended. */
export function renewalFailedEmail(
  locale: Locale,
  facts: {
    displayName: string;
    amount: number;
    currency: string;
    reason: string;
    /**
     * The provider never confirmed the charge either way (the reconciliation job's long limit): we cannot say
     * nothing was charged, and if it does go through later the period is renewed after all.
     */
    unconfirmed?: boolean;
  },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, 'Langganan Kabari Anda telah berakhir: pembayaran gagal', [
      hello(locale, facts.displayName),
      `Kami tidak dapat menagih ${amount} untuk memperpanjang langganan Kabari Anda. Alasan: ${facts.reason}`,
      facts.unconfirmed
        ? 'Langganan Anda telah berakhir. Jika pembayaran ini ternyata berhasil, langganan Anda otomatis diperpanjang untuk periode tersebut dan Anda menerima tanda terima. Jika Anda sudah memperpanjang sendiri sebelum itu, pembayaran yang terlambat tersebut kami kembalikan secara penuh.'
        : 'Langganan Anda telah berakhir dan tidak ada biaya yang ditagih. Untuk melanjutkan, masuk ke Kabari dan perpanjang langganan dengan metode pembayaran lain.',
    ]);
  }
  return render(locale, 'Your Kabari subscription has ended: the payment failed', [
    hello(locale, facts.displayName),
    `We could not charge ${amount} to renew your Kabari subscription. Reason: ${facts.reason}`,
    facts.unconfirmed
      ? 'Your subscription has ended. If this payment does go through after all, your subscription is renewed for the period automatically and you get a receipt. If you have renewed by hand before then, that late charge is refunded to you in full.'
      : 'Your subscription has ended and nothing was charged. To continue, sign in to Kabari and renew with another payment method.',
  ]);
}

/**
 * A charge that paid the current period was refunded in full, or any charge was disputed: the subscription has
 * ended at once and nothing more will be charged.
 */
export function reversalEndedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; paidAt: Date; reason: 'refunded' | 'disputed' },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, 'Langganan Kabari Anda telah berakhir', [
      hello(locale, facts.displayName),
      facts.reason === 'refunded'
        ? `Pembayaran ${amount} pada ${day(facts.paidAt, locale)} telah dikembalikan kepada Anda, jadi langganan Kabari Anda berakhir hari ini.`
        : `Pembayaran ${amount} pada ${day(facts.paidAt, locale)} sedang disengketakan melalui bank atau penyedia pembayaran Anda, jadi langganan Kabari Anda berakhir hari ini.`,
      'Tidak akan ada tagihan lagi. Untuk berlangganan kembali, masuk ke Kabari dan bayar di jendela langganan berakhir.',
    ]);
  }
  return render(locale, 'Your Kabari subscription has ended', [
    hello(locale, facts.displayName),
    facts.reason === 'refunded'
      ? `The payment of ${amount} made on ${day(facts.paidAt, locale)} has been refunded to you, so your Kabari subscription has ended today.`
      : `The payment of ${amount} made on ${day(facts.paidAt, locale)} is being disputed through your bank or payment provider, so your Kabari subscription has ended today.`,
    'Nothing more will be charged. To subscribe again, sign in to Kabari and pay in the subscription-expired window.',
  ]);
}

/** The operator won the dispute of a charge: the subscription the dispute ended is back as it was. */
export function disputeWonEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; paidAt: Date; validUntil: Date; renews: boolean },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  const until = day(facts.validUntil, locale);
  if (locale === 'id') {
    return render(locale, 'Langganan Kabari Anda aktif kembali', [
      hello(locale, facts.displayName),
      `Sengketa atas pembayaran ${amount} pada ${day(facts.paidAt, locale)} telah diputuskan oleh bank atau penyedia pembayaran: pembayaran itu tetap sah. Langganan Kabari yang berakhir karena sengketa tersebut kami aktifkan kembali seperti sebelumnya.`,
      facts.renews
        ? `Langganan Anda berlaku hingga ${until} dan diperpanjang otomatis seperti biasa. Anda dapat membatalkannya kapan saja di Langganan saya.`
        : `Langganan Anda berlaku hingga ${until} dan tidak diperpanjang, karena Anda sudah membatalkannya sebelumnya.`,
    ]);
  }
  return render(locale, 'Your Kabari subscription is active again', [
    hello(locale, facts.displayName),
    `The dispute of the payment of ${amount} made on ${day(facts.paidAt, locale)} has been decided by your bank or payment provider: the payment stands. The Kabari subscription the dispute ended is back as it was.`,
    facts.renews
      ? `It runs until ${until} and renews as before. You can cancel it at any time in My subscription.`
      : `It runs until ${until} and does not renew, as you had cancelled it before.`,
  ]);
}

/**
 * A renewal charge the provider confirmed only after its period had moved on (the subscription had expired
 * unconfirmed and was paid again by hand): nothing was given for it, so it was refunded in full.
 */
export function lateChargeRefundedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; chargedAt: Date },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, `Kabari mengembalikan pembayaran yang terlambat: ${amount}`, [
      hello(locale, facts.displayName),
      `Penagihan perpanjangan otomatis sebesar ${amount} dari ${day(facts.chargedAt, locale)} baru dikonfirmasi oleh penyedia pembayaran setelah periodenya lewat, jadi kami tidak memberikan apa pun untuk pembayaran itu.`,
      'Kami sudah mengembalikannya secara penuh. Dana biasanya kembali ke rekening Anda dalam 5–10 hari kerja, tergantung bank atau penyedia pembayaran Anda.',
      'Langganan Anda saat ini tidak terpengaruh.',
    ]);
  }
  return render(locale, `Kabari refunded a late charge: ${amount}`, [
    hello(locale, facts.displayName),
    `The automatic renewal charge of ${amount} from ${day(facts.chargedAt, locale)} was confirmed by the payment provider only after its period had passed, so nothing was given for it.`,
    'We have refunded it in full. The money usually reaches your account within 5–10 business days, depending on your bank or payment provider.',
    'Your current subscription is not affected.',
  ]);
}

/**
 * A renewal by hand booked after the subscription had been renewed meanwhile (a late renewal charge, or another
 * attempt, paid the period first): the second payment bought nothing, so it was refunded in full.
 */
export function duplicatePaymentRefundedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; chargedAt: Date },
): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, locale);
  if (locale === 'id') {
    return render(locale, `Kabari mengembalikan pembayaran ganda: ${amount}`, [
      hello(locale, facts.displayName),
      `Pembayaran Anda sebesar ${amount} pada ${day(facts.chargedAt, locale)} untuk memperpanjang langganan masuk setelah langganan Anda sudah diperpanjang untuk periode yang sama, jadi pembayaran kedua ini tidak diperlukan.`,
      'Kami sudah mengembalikannya secara penuh. Dana biasanya kembali ke rekening Anda dalam 5–10 hari kerja, tergantung bank atau penyedia pembayaran Anda.',
      'Langganan Anda tetap aktif dan tidak terpengaruh.',
    ]);
  }
  return render(locale, `Kabari refunded a second payment: ${amount}`, [
    hello(locale, facts.displayName),
    `Your payment of ${amount} on ${day(facts.chargedAt, locale)} to renew your subscription came in after your subscription had already been renewed for the same period, so this second payment was not needed.`,
    'We have refunded it in full. The money usually reaches your account within 5–10 business days, depending on your bank or payment provider.',
    'Your subscription stays active and is not affected.',
  ]);
}

/**
 * To the operator (English): a refund we owe that the provider refused for good, to be made by hand in the
 * provider's dashboard. What identifies the payment and the refusal only: no name or address of the payer.
 */
export function refundRefusedOperatorEmail(facts: {
  paymentId: string;
  provider: string;
  providerRef: string | null;
  amount: number;
  currency: string;
  reason: string | null;
  code: string;
}): RenderedEmail {
  const amount = formatMoney(facts.amount, facts.currency, 'en');
  return render('en', `Kabari: a refund of ${amount} needs to be made by hand`, [
    `The payment provider refused a refund Kabari owes, and it will not be tried again. Please refund it by hand in the ${facts.provider} dashboard, or contact the payer.`,
    `Payment: ${facts.paymentId} · Provider: ${facts.provider} · Provider reference: ${facts.providerRef ?? 'none'}`,
    `Amount: ${amount} · Why it is owed: ${facts.reason ?? 'unknown'} · Provider's error: ${facts.code}`,
    'The payment stays recorded as succeeded; the subscriber was not told it was refunded.',
  ]);
}

export function cancelledEmail(locale: Locale, facts: { displayName: string; validUntil: Date }): RenderedEmail {
  if (locale === 'id') {
    return render(locale, 'Langganan Kabari Anda telah dibatalkan', [
      hello(locale, facts.displayName),
      `Langganan Anda telah dibatalkan dan tidak akan diperpanjang lagi. Anda tetap dapat memakai Kabari sampai ${day(facts.validUntil, locale)}.`,
    ]);
  }
  return render(locale, 'Your Kabari subscription is cancelled', [
    hello(locale, facts.displayName),
    `Your subscription is cancelled and will not renew. You can keep using Kabari until ${day(facts.validUntil, locale)}.`,
  ]);
}

export function billingCodeEmail(
  locale: Locale,
  purpose: 'refund_request' | 'delete_account',
  code: string,
): RenderedEmail {
  const what = {
    en: {
      refund_request: 'confirm your cancellation and refund request',
      delete_account: 'delete your Kabari account',
    },
    id: {
      refund_request: 'mengonfirmasi permintaan pembatalan dan pengembalian dana',
      delete_account: 'menghapus akun Kabari Anda',
    },
  };
  if (locale === 'id') {
    return render(locale, 'Kode verifikasi Kabari Anda', [
      `Kode verifikasi Anda: ${code}`,
      `Masukkan kode ini di Kabari untuk ${what.id[purpose]}. Kode berlaku 10 menit dan hanya dapat dipakai sekali.`,
      'Jika Anda tidak memintanya, abaikan email ini: tidak ada yang berubah.',
    ]);
  }
  return render(locale, 'Your Kabari verification code', [
    `Your verification code is: ${code}`,
    `Enter it in Kabari to ${what.en[purpose]}. It expires in 10 minutes and works only once.`,
    'If you did not ask for it, ignore this email: nothing changes.',
  ]);
}

export function refundRequestEmail(
  locale: Locale,
  facts: { requestId: string; cancelled: boolean; validUntil: Date | null },
): RenderedEmail {
  if (locale === 'id') {
    return render(locale, 'Kami menerima permintaan pengembalian dana Anda', [
      'Halo,',
      `Kami telah menerima permintaan pembatalan dan pengembalian dana Anda (nomor ${facts.requestId}). Tim kami akan memeriksanya dan membalas email ini.`,
      facts.cancelled && facts.validUntil
        ? `Langganan Anda telah dibatalkan dan tidak akan diperpanjang. Akses tetap berlaku sampai ${day(facts.validUntil, locale)}.`
        : 'Tidak ada langganan aktif untuk alamat email ini.',
    ]);
  }
  return render(locale, 'We received your refund request', [
    'Hello,',
    `We received your cancellation and refund request (number ${facts.requestId}). Our team will review it and reply to this email.`,
    facts.cancelled && facts.validUntil
      ? `Your subscription is cancelled and will not renew. Access remains until ${day(facts.validUntil, locale)}.`
      : 'There is no active subscription for this email address.',
  ]);
}

export function accountDeletedEmail(locale: Locale, displayName: string): RenderedEmail {
  if (locale === 'id') {
    return render(locale, 'Akun Kabari Anda telah dihapus', [
      hello(locale, displayName),
      'Akun Kabari Anda telah dihapus: langganan dibatalkan, dan data pribadi, permintaan lokasi, serta lokasi yang dibagikan telah dihapus. Catatan pembayaran disimpan hanya sejauh diwajibkan hukum, tanpa terhubung ke Anda.',
    ]);
  }
  return render(locale, 'Your Kabari account has been deleted', [
    hello(locale, displayName),
    'Your Kabari account has been deleted: the subscription is cancelled, and your personal data, location requests and shared positions are erased. Payment records are kept only as the law requires, no longer linked to you.',
  ]);
}

export function methodLabel(
  locale: Locale,
  payment: { provider: string; cardBrand: string | null; cardLast4: string | null; method?: string | null },
): string {
  const sandbox = payment.provider === 'sandbox' ? (locale === 'id' ? ' (sandbox)' : ' (sandbox)') : '';
  if (payment.cardLast4) return `${payment.cardBrand ?? 'card'} •••• ${payment.cardLast4}${sandbox}`;
  if (payment.method === 'paypal' || payment.provider === 'paypal') return `PayPal${sandbox}`;
  if (payment.method === 'wallet') return `${locale === 'id' ? 'Dompet digital' : 'Wallet'}${sandbox}`;
  return `${payment.provider}${sandbox}`;
}
