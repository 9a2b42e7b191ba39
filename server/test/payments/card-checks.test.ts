import { checkCard, type CardInput } from '../../src/payments/card-checks';

const now = new Date('2026-11-28T12:00:00Z');
const card = (overrides: Partial<CardInput> = {}): CardInput => ({
  name: 'Ana',
  surname: 'Lestari',
  number: '4242 4242 4242 4242',
  expiryMonth: '12',
  expiryYear: '27',
  cvv: '123',
  ...overrides,
});

describe('the sandbox card checks', () => {
  it('takes a card of a known brand and keeps its brand and last four', () => {
    for (const [number, cvv, brand] of [
      ['4242 4242 4242 4242', '123', 'visa'],
      ['5555-5555-5555-4444', '123', 'mastercard'],
      ['3782 822463 10005', '1234', 'amex'],
      ['3622 720627 1667', '123', 'diners'],
      ['6011 1111 1111 1117', '123', 'discover'],
      ['3530 1113 3330 0000', '123', 'jcb'],
    ] as const) {
      const checked = checkCard(card({ number, cvv }), now);
      expect(checked).toEqual({
        ok: true,
        card: { brand, last4: number.replace(/\D/g, '').slice(-4), digits: number.replace(/\D/g, '') },
      });
    }
  });

  it('refuses a number that fails the checksum, or that no brand issues, or of a length its brand does not issue', () => {
    for (const number of ['4242 4242 4242 4241', '1234 5678 9012 3452', '4242 4242 4242 42', '']) {
      expect(checkCard(card({ number }), now)).toEqual({ ok: false, problem: 'number' });
    }
  });

  it("asks for the brand's code length: four digits for American Express, three for the others", () => {
    expect(checkCard(card({ number: '378282246310005', cvv: '123' }), now)).toEqual({ ok: false, problem: 'cvv' });
    expect(checkCard(card({ cvv: '1234' }), now)).toEqual({ ok: false, problem: 'cvv' });
    expect(checkCard(card({ cvv: '12a' }), now)).toEqual({ ok: false, problem: 'cvv' });
  });

  it('takes a card through the last day of its expiry month, by the given clock', () => {
    expect(checkCard(card({ expiryMonth: 11, expiryYear: 2026 }), now).ok).toBe(true);
    expect(checkCard(card({ expiryMonth: 10, expiryYear: 2026 }), now)).toEqual({ ok: false, problem: 'expired' });
    expect(checkCard(card({ expiryMonth: 13 }), now)).toEqual({ ok: false, problem: 'expiry' });
  });
});
