import cardValidator from 'card-validator';

/** The sandbox card form's checks, the same the sandbox processor makes (Luhn, expiry, CVV format). */
export interface CardDetails {
  name: string;
  surname: string;
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/** A number of a length its brand issues, passing the Luhn checksum (card-validator, as the sandbox checks it). */
export function isCardNumberValid(number: string): boolean {
  return cardValidator.number(digitsOnly(number)).isValid;
}

/** "MM/YY" (or "MM/YYYY") → month and four-digit year; null when malformed. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** A card is valid through the last day of its expiry month. */
export function isExpiryValid(value: string, now: Date = new Date()): boolean {
  const expiry = parseExpiry(value);
  if (!expiry) return false;
  return expiry.year > now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month >= now.getMonth() + 1);
}

export function isCvvValid(value: string): boolean {
  return /^\d{3,4}$/.test(value.trim());
}

/** Groups the digits by four as the user types: "4242 4242 4242 4242". */
export function formatCardNumber(value: string): string {
  return digitsOnly(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Adds the slash after the month as the user types. */
export function formatExpiry(value: string): string {
  const digits = digitsOnly(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
