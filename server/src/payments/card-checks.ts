import { messagesOf } from '../lib/messages';

/** Card details as the sandbox form sends them. They are checked, used and dropped: never stored or logged. */
export interface CardInput {
  name: string;
  surname: string;
  number: string;
  expiryMonth: string | number;
  expiryYear: string | number;
  cvv: string;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'unionpay' | 'diners' | 'unknown';

export type CardProblem = 'name' | 'surname' | 'number' | 'expiry' | 'expired' | 'cvv';

/** What is wrong with a sandbox card, in both languages (the catalogue mechanism of lib/messages). */
export const sayCardProblem = messagesOf('cardProblem');

export function digitsOnly(number: string): string {
  return number.replace(/[\s-]/g, '');
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^35(2[89]|[3-8])/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners';
  return 'unknown';
}

export interface CheckedCard {
  brand: CardBrand;
  last4: string;
  /** Kept only in memory, to decide the sandbox outcome. */
  digits: string;
}

/**
 * Format checks a card processor would make before charging: names present, number 12–19 digits passing Luhn,
 * a real month and a year not in the past, CVV of 3 digits (4 for American Express).
 */
export function checkCard(
  card: CardInput,
  now: Date,
): { ok: true; card: CheckedCard } | { ok: false; problem: CardProblem } {
  if (!card.name.trim()) return { ok: false, problem: 'name' };
  if (!card.surname.trim()) return { ok: false, problem: 'surname' };
  const digits = digitsOnly(card.number);
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return { ok: false, problem: 'number' };

  const month = Number(String(card.expiryMonth).trim());
  const yearText = String(card.expiryYear).trim();
  if (!/^\d{1,2}$/.test(String(card.expiryMonth).trim()) || month < 1 || month > 12) {
    return { ok: false, problem: 'expiry' };
  }
  if (!/^(\d{2}|\d{4})$/.test(yearText)) return { ok: false, problem: 'expiry' };
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const currentYear = now.getUTCFullYear();
  if (year > currentYear + 20) return { ok: false, problem: 'expiry' };
  // A card is valid through the last day of its expiry month.
  if (year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1)) {
    return { ok: false, problem: 'expired' };
  }

  const brand = cardBrand(digits);
  const cvvLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv.trim())) return { ok: false, problem: 'cvv' };
  return { ok: true, card: { brand, last4: digits.slice(-4), digits } };
}
