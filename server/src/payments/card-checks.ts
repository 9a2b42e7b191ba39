import cardValidator from 'card-validator';
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

/** card-validator's names for the brands (credit-card-type's), as Kabari stores and shows them. */
const BRANDS: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  discover: 'discover',
  jcb: 'jcb',
  unionpay: 'unionpay',
  'diners-club': 'diners',
};

export interface CheckedCard {
  brand: CardBrand;
  last4: string;
  /** Kept only in memory, to decide the sandbox outcome. */
  digits: string;
}

/**
 * Format checks a card processor would make before charging: names present, a number of a length its brand issues
 * passing Luhn, a real month and a year not in the past, the brand's CVV length (4 digits for American Express).
 */
export function checkCard(
  card: CardInput,
  now: Date,
): { ok: true; card: CheckedCard } | { ok: false; problem: CardProblem } {
  if (!card.name.trim()) return { ok: false, problem: 'name' };
  if (!card.surname.trim()) return { ok: false, problem: 'surname' };
  // A length the brand issues and the Luhn checksum (card-validator; spaces and dashes are allowed).
  const number = cardValidator.number(card.number);
  if (!number.isValid || !number.card) return { ok: false, problem: 'number' };
  const digits = card.number.replace(/[\s-]/g, '');

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

  // The length of the brand's code: 4 digits for American Express, 3 for the others.
  if (!cardValidator.cvv(card.cvv.trim(), number.card.code.size).isValid) return { ok: false, problem: 'cvv' };
  const brand = BRANDS[number.card.type] ?? 'unknown';
  return { ok: true, card: { brand, last4: digits.slice(-4), digits } };
}
