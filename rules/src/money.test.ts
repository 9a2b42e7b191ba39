import { formatMoney, isKnownCurrency, minorDigits, parseMajorAmount, stripeDigits, toMajor } from './money';

describe('the currencies’ decimals', () => {
  it('are Kabari’s whole rupiah and yen, ISO 4217’s elsewhere', () => {
    expect(minorDigits('IDR')).toBe(0);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('KWD')).toBe(3);
  });

  it('are Stripe’s own where an amount goes to Stripe: rupiah and krónur in hundredths', () => {
    expect(stripeDigits('IDR')).toBe(2);
    expect(stripeDigits('ISK')).toBe(2);
    expect(stripeDigits('JPY')).toBe(0);
    expect(stripeDigits('KWD')).toBe(3);
    expect(stripeDigits('USD')).toBe(2);
  });

  it('know the ISO 4217 codes only', () => {
    expect(isKnownCurrency('IDR')).toBe(true);
    expect(isKnownCurrency('idr')).toBe(false);
    expect(isKnownCurrency('XYZ')).toBe(false);
  });

  it('turn an operator’s amount into minor units and back', () => {
    expect(parseMajorAmount('29.99', 'USD')).toBe(2_999);
    expect(parseMajorAmount('449000.50', 'IDR')).toBeNull();
    expect(toMajor(449_000, 'IDR')).toBe(449_000);
  });
});

describe('formatMoney', () => {
  // The email and the page write an amount the same way.
  it.each([
    [29.99, 'USD', 'en', '$29.99'],
    [0.99, 'USD', 'en', '$0.99'],
    [0.5, 'USD', 'en', '$0.50'],
    [10, 'USD', 'en', '$10'],
    [0.99, 'USD', 'id', 'US$0,99'],
    [449_000, 'IDR', 'id', 'Rp 449.000'],
    [449_000, 'IDR', 'en', 'IDR 449,000'],
    [1.25, 'KWD', 'en', 'KWD 1.250'],
    [3, 'KWD', 'en', 'KWD 3'],
  ] as const)('writes %d %s in %s as %j', (amount, currency, locale, text) => {
    expect(formatMoney(amount, currency, locale).replace(/\u00a0/g, ' ')).toBe(text);
  });
});
