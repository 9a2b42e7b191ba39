import { defineMessages, type Locale } from '../lib/messages';

/**
 * What the billing routes (sign-up, subscription, refunds, account) say to people, in both languages. Schema
 * messages are here too: the validation handler finds their other language by the English text.
 */
export const sayBilling = defineMessages(
  {
    signUpsFromNetwork: 'Too many sign-up attempts from this network. Please try again in {wait}.',
    methodUnavailable: 'This payment method is not available here. Please choose another one.',
    paymentsNotConfigured:
      'Payments are not configured on this server yet, so no subscription can be paid here. No card details were taken.',
    paypalUnavailable: 'PayPal could not start the payment. Please try again in a moment or choose another method.',
    paypalOrderMissing: 'The PayPal order is missing. Please start the payment again.',
    signUpNotFound: 'This sign-up was not found.',
    renewalNotFound: 'This renewal was not found.',
    paypalOrderInvalid: 'This PayPal order is not valid. Please start the payment again.',
    termsVersionInvalid: 'The terms you accepted could not be read. Please reload the page and try again.',
    noSubscription: 'This account has no subscription.',
    stillRunning: 'Your subscription is still running: there is nothing to renew yet.',
    stripeMethodMissing: 'The card details did not reach the payment provider. Please enter them again.',
    sessionNotFound: 'This session was not found.',
    confirmAge: 'Please confirm that you are 18 or older',
    acceptTerms: 'Please accept the terms of use',
    refundReason: 'Please tell us why you ask for a refund',
    reasonTooLong: 'The reason is too long (2000 characters at most)',
    enterTheCode: 'Please enter the verification code',
    confirmDeletion: 'Confirm with your password or the emailed code',
    enterPassword: 'Please input a your password',
    enterNewPassword: 'Please input a your new password',
  },
  {
    signUpsFromNetwork: 'Terlalu banyak percobaan pendaftaran dari jaringan ini. Silakan coba lagi dalam {wait}.',
    methodUnavailable: 'Metode pembayaran ini tidak tersedia di sini. Silakan pilih metode lain.',
    paymentsNotConfigured:
      'Pembayaran belum diatur di server ini, jadi langganan belum bisa dibayar di sini. Tidak ada data kartu yang diambil.',
    paypalUnavailable: 'PayPal tidak dapat memulai pembayaran. Coba lagi sebentar lagi atau pilih metode lain.',
    paypalOrderMissing: 'Pesanan PayPal tidak ditemukan. Silakan mulai pembayaran lagi.',
    signUpNotFound: 'Pendaftaran ini tidak ditemukan.',
    paypalOrderInvalid: 'Pesanan PayPal ini tidak valid. Silakan mulai pembayaran lagi.',
    termsVersionInvalid: 'Ketentuan yang Anda setujui tidak terbaca. Muat ulang halaman lalu coba lagi.',
    renewalNotFound: 'Perpanjangan ini tidak ditemukan.',
    noSubscription: 'Akun ini tidak memiliki langganan.',
    stillRunning: 'Langganan Anda masih berjalan: belum ada yang perlu diperpanjang.',
    stripeMethodMissing: 'Data kartu tidak sampai ke penyedia pembayaran. Silakan masukkan lagi.',
    sessionNotFound: 'Sesi ini tidak ditemukan.',
    confirmAge: 'Silakan konfirmasi bahwa Anda berusia 18 tahun atau lebih',
    acceptTerms: 'Silakan setujui ketentuan penggunaan',
    refundReason: 'Silakan beri tahu kami alasan Anda meminta pengembalian dana',
    reasonTooLong: 'Alasan terlalu panjang (paling banyak 2000 karakter)',
    enterTheCode: 'Silakan masukkan kode verifikasi',
    confirmDeletion: 'Konfirmasi dengan kata sandi Anda atau kode yang kami kirim lewat email',
    enterPassword: 'Silakan masukkan kata sandi Anda',
    enterNewPassword: 'Silakan masukkan kata sandi baru Anda',
  },
);

/**
 * Why a payment failed, by the provider's code (Stripe's decline codes, PayPal's issues, the sandbox's codes),
 * in both languages. Codes not listed keep the provider's own text.
 */
const sayDecline = defineMessages(
  {
    card_declined: 'Your card was declined. Please use another card or payment method.',
    generic_decline: 'Your card was declined. Please use another card or payment method.',
    do_not_honor: 'Your card was declined. Please use another card or payment method.',
    insufficient_funds: 'Your card has insufficient funds. Please use another card or payment method.',
    expired_card: 'Your card has expired. Please use another card.',
    incorrect_cvc: "Your card's security code (CVC) is incorrect.",
    invalid_cvc: "Your card's security code (CVC) is incorrect.",
    incorrect_number: 'Your card number is incorrect.',
    invalid_number: 'Your card number is incorrect.',
    invalid_expiry_month: "Your card's expiry date is incorrect.",
    invalid_expiry_year: "Your card's expiry date is incorrect.",
    lost_card: 'Your card was declined. Please use another card or payment method.',
    stolen_card: 'Your card was declined. Please use another card or payment method.',
    fraudulent: 'Your card was declined. Please use another card or payment method.',
    pickup_card: 'Your card was declined. Please use another card or payment method.',
    card_velocity_exceeded: 'Your card has reached its spending limit. Please use another card or try again later.',
    withdrawal_count_limit_exceeded:
      'Your card has reached its spending limit. Please use another card or try again later.',
    transaction_not_allowed: 'Your card does not allow this payment. Please use another card or payment method.',
    currency_not_supported: 'Your card does not support this currency. Please use another card.',
    processing_error: 'An error occurred while processing your card. Please try again.',
    try_again_later: 'Your bank could not process the payment right now. Please try again later.',
    authentication_required: 'Your bank asked to confirm the payment, which cannot be done automatically.',
    payment_intent_authentication_failure: 'The payment was not confirmed with your bank. Please try again.',
    payment_failed: 'The payment did not go through. Please use another payment method.',
    not_a_test_card:
      "This is the sandbox: no real card is charged. Use one of Stripe's public test cards (the Visa test card ends in 4242), any future expiry date and any 3-digit CVV.",
    email_in_use: 'This email address is already in use',
    order_failed: 'PayPal could not start the payment. Please try again in a moment or choose another method.',
    INSTRUMENT_DECLINED: 'PayPal declined this payment method. Please choose another funding source in PayPal.',
    PAYER_ACTION_REQUIRED: 'PayPal needs you to approve the payment again. Please start the payment again.',
    DECLINED: 'PayPal declined the payment. Please use another payment method.',
    payment_abandoned:
      'The payment was not finished in time, so it was stopped: no account was created and nothing was charged. You can sign up again.',
    payment_canceled:
      'The payment was cancelled: no account was created and nothing was charged. You can sign up again.',
    status_unknown:
      'The payment provider could not tell us whether your payment went through. If you were charged, contact us and we will sort it out.',
    duplicate_payment:
      'Your subscription had already been renewed for this period, so it stays active and this second payment is refunded to you in full. We have sent you an email about it.',
  },
  {
    card_declined: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    generic_decline: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    do_not_honor: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    insufficient_funds: 'Saldo kartu Anda tidak mencukupi. Gunakan kartu atau metode pembayaran lain.',
    expired_card: 'Kartu Anda sudah kedaluwarsa. Gunakan kartu lain.',
    incorrect_cvc: 'Kode keamanan (CVC) kartu Anda salah.',
    invalid_cvc: 'Kode keamanan (CVC) kartu Anda salah.',
    incorrect_number: 'Nomor kartu Anda salah.',
    invalid_number: 'Nomor kartu Anda salah.',
    invalid_expiry_month: 'Tanggal kedaluwarsa kartu Anda salah.',
    invalid_expiry_year: 'Tanggal kedaluwarsa kartu Anda salah.',
    lost_card: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    stolen_card: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    fraudulent: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    pickup_card: 'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    card_velocity_exceeded: 'Kartu Anda telah mencapai batas transaksi. Gunakan kartu lain atau coba lagi nanti.',
    withdrawal_count_limit_exceeded:
      'Kartu Anda telah mencapai batas transaksi. Gunakan kartu lain atau coba lagi nanti.',
    transaction_not_allowed: 'Kartu Anda tidak mengizinkan pembayaran ini. Gunakan kartu atau metode pembayaran lain.',
    currency_not_supported: 'Kartu Anda tidak mendukung mata uang ini. Gunakan kartu lain.',
    processing_error: 'Terjadi kesalahan saat memproses kartu Anda. Silakan coba lagi.',
    try_again_later: 'Bank Anda belum dapat memproses pembayaran saat ini. Silakan coba lagi nanti.',
    authentication_required: 'Bank Anda meminta konfirmasi pembayaran, yang tidak dapat dilakukan secara otomatis.',
    payment_intent_authentication_failure: 'Pembayaran tidak dikonfirmasi dengan bank Anda. Silakan coba lagi.',
    payment_failed: 'Pembayaran tidak berhasil. Gunakan metode pembayaran lain.',
    not_a_test_card:
      'Ini adalah sandbox: tidak ada kartu sungguhan yang ditagih. Gunakan salah satu kartu uji publik Stripe (kartu uji Visa berakhiran 4242), tanggal kedaluwarsa kapan pun di masa depan, dan CVV 3 digit apa saja.',
    email_in_use: 'Alamat email ini sudah digunakan',
    order_failed: 'PayPal tidak dapat memulai pembayaran. Coba lagi sebentar lagi atau pilih metode lain.',
    INSTRUMENT_DECLINED: 'PayPal menolak metode pembayaran ini. Silakan pilih sumber dana lain di PayPal.',
    PAYER_ACTION_REQUIRED: 'PayPal meminta Anda menyetujui pembayaran lagi. Silakan mulai pembayaran lagi.',
    DECLINED: 'PayPal menolak pembayaran. Gunakan metode pembayaran lain.',
    payment_abandoned:
      'Pembayaran tidak diselesaikan tepat waktu sehingga dihentikan: tidak ada akun yang dibuat dan tidak ada tagihan. Anda dapat mendaftar lagi.',
    payment_canceled:
      'Pembayaran dibatalkan: tidak ada akun yang dibuat dan tidak ada tagihan. Anda dapat mendaftar lagi.',
    status_unknown:
      'Penyedia pembayaran tidak dapat memastikan apakah pembayaran Anda berhasil. Jika Anda sudah ditagih, hubungi kami dan kami akan membereskannya.',
    duplicate_payment:
      'Langganan Anda sudah diperpanjang untuk periode ini, jadi langganan tetap aktif dan pembayaran kedua ini kami kembalikan secara penuh. Kami sudah mengirimkan email tentang hal ini.',
  },
);

type DeclineCode = Parameters<typeof sayDecline>[0];

const DECLINE_CODES = new Set<string>([
  'card_declined',
  'generic_decline',
  'do_not_honor',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'invalid_cvc',
  'incorrect_number',
  'invalid_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'lost_card',
  'stolen_card',
  'fraudulent',
  'pickup_card',
  'card_velocity_exceeded',
  'withdrawal_count_limit_exceeded',
  'transaction_not_allowed',
  'currency_not_supported',
  'processing_error',
  'try_again_later',
  'authentication_required',
  'payment_intent_authentication_failure',
  'payment_failed',
  'not_a_test_card',
  'email_in_use',
  'order_failed',
  'INSTRUMENT_DECLINED',
  'PAYER_ACTION_REQUIRED',
  'DECLINED',
  'payment_abandoned',
  'payment_canceled',
  'status_unknown',
  'duplicate_payment',
] satisfies DeclineCode[]);

/** A failed payment's reason in `locale`: ours for a known code, else the provider's text, else a general one. */
export function failureText(code: string | null | undefined, locale: Locale, providerText?: string | null): string {
  if (code && DECLINE_CODES.has(code)) return sayDecline(code as DeclineCode)[locale];
  return providerText || sayDecline('payment_failed')[locale];
}
