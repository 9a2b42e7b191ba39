import { toMinorUnits } from './payment-terms';

describe('amounts for the wallet’s payment sheet', () => {
  it('are counted as Stripe counts them: hundredths, whole units or thousandths', () => {
    expect(toMinorUnits(449000, 'IDR')).toBe(44_900_000);
    expect(toMinorUnits(4.99, 'usd')).toBe(499);
    expect(toMinorUnits(500, 'JPY')).toBe(500);
    expect(toMinorUnits(1.234, 'KWD')).toBe(1_234);
  });
});
