import { minorDigits, parseMajorAmount, toMajor } from '@kabari/rules/money';
import { stripeAmount } from '../../src/payments/stripe-outcomes';

describe('amounts sent to Stripe', () => {
  it('are Kabari’s minor units, but rupiah in hundredths as Stripe counts them', () => {
    // Kabari counts rupiah whole (Rp 449.000 is 449000); Stripe wants hundredths.
    expect(minorDigits('IDR')).toBe(0);
    expect(stripeAmount(449_000, 'IDR')).toBe(44_900_000);
    expect(stripeAmount(2_999, 'USD')).toBe(2_999);
    expect(stripeAmount(500, 'JPY')).toBe(500);
    // Krónur too: whole for Kabari and for ICU, hundredths for Stripe.
    expect(stripeAmount(1_000, 'ISK')).toBe(100_000);
    expect(stripeAmount(1_234, 'KWD')).toBe(1_234);
  });

  it('come from the amounts an operator writes in each currency’s own decimals', () => {
    expect(parseMajorAmount('29.99', 'USD')).toBe(2_999);
    expect(parseMajorAmount('449000', 'IDR')).toBe(449_000);
    expect(parseMajorAmount('449000.50', 'IDR')).toBeNull();
    expect(parseMajorAmount('1.234', 'KWD')).toBe(1_234);
    expect(toMajor(1_234, 'KWD')).toBe(1.234);
  });
});
