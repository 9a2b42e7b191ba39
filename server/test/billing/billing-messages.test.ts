import { failureText } from '../../src/billing/billing-messages';

describe('failureText', () => {
  it('says a known decline code in both languages', () => {
    expect(failureText('insufficient_funds', 'en', 'Your card has insufficient funds.')).toBe(
      'Your card has insufficient funds. Please use another card or payment method.',
    );
    expect(failureText('INSTRUMENT_DECLINED', 'id', 'declined')).toBe(
      'PayPal menolak metode pembayaran ini. Silakan pilih sumber dana lain di PayPal.',
    );
  });

  it('keeps the provider’s text for a code it does not know, and has a general text when there is none', () => {
    expect(failureText('some_new_code', 'id', 'Stripe says something new.')).toBe('Stripe says something new.');
    expect(failureText(null, 'id', null)).toBe('Pembayaran tidak berhasil. Gunakan metode pembayaran lain.');
  });
});
