import { findPhoneNumbersInText } from 'libphonenumber-js/min';
import { findLink } from './link-detector';

/**
 * The one rule for every text a requester writes and a stranger reads (the display name in "Kabari: <name> asks to
 * see your location", the personal note of an SMS or email, the text beside a voice note on the consent page): it
 * may not send the reader anywhere else. No link (findLink), no phone number to call or message on WhatsApp, and, for
 * a name, no bank's or payment service's name, nor Kabari's own: "BCA: rekening diblokir, hubungi 0812 3456 7890"
 * and "Bank BCA Security" are the lures this keeps out. The server refuses by it, and the web forms apply the same
 * rule before sending, so the requester reads the refusal the server would give.
 */
type LureKind = 'link' | 'phone' | 'brand';

interface Lure {
  kind: LureKind;
  /** The text found, as written. */
  found: string;
}

// Indonesia first: a number written the local way (0812…) is read as Indonesian; one with its own + prefix as that
// country's.
const HOME_COUNTRY = 'ID';

// A run of at least 8 digits, each apart from the next by at most two spaces, dots, dashes, slashes or brackets.
const DIGIT_RUN = /\+?\(?\d(?:[\s.\-/()]{0,2}\d){7,}/gu;
// Thousands written in groups of three (Rp 1.500.000, 2,000,000): an amount, not a number to call.
const AMOUNT = /^[1-9]\d{0,2}(?:([.,])\d{3})(?:\1\d{3})*$/u;
const CURRENCY_BEFORE = /(?:rp\.?|idr|usd|\$|€|£)\s*$/iu;

function isAmount(text: string, raw: string, startsAt: number): boolean {
  return AMOUNT.test(raw.trim()) || CURRENCY_BEFORE.test(text.slice(Math.max(0, startsAt - 5), startsAt));
}

/**
 * The first phone number in `text`, as written, or null. libphonenumber finds what it can dial (0812 3456 7890,
 * +62 812-3456-7890, the bank line 1500888, +1 415 555 2671); a long run of digits it cannot place is refused too,
 * when it reads as a number: with a + (+44 7700 900123), from a 0 with 9 digits or more, or 10 digits or more.
 * Times, dates, years and amounts (5 pm, 17.30, 12-05-2024, Rp 1.500.000) are not numbers to call.
 */
export function findPhoneNumber(text: string): string | null {
  for (const form of new Set([text, text.normalize('NFKC')])) {
    for (const found of findPhoneNumbersInText(form, HOME_COUNTRY)) {
      const raw = form.slice(found.startsAt, found.endsAt);
      if (!isAmount(form, raw, found.startsAt)) return raw;
    }
    for (const match of form.matchAll(DIGIT_RUN)) {
      const raw = match[0];
      const digits = raw.replace(/\D/gu, '');
      const readsAsNumber =
        (raw.startsWith('+') && digits.length >= 8) ||
        (digits.startsWith('0') && digits.length >= 9) ||
        digits.length >= 10;
      if (readsAsNumber && !isAmount(form, raw, match.index)) return raw;
    }
  }
  return null;
}

/** Banks and payment services people in Indonesia know, and Kabari itself: never a requester's name. */
const BRANDS = new Set([
  'bank',
  'bca',
  'bni',
  'bri',
  'mandiri',
  'bsi',
  'btn',
  'cimb',
  'danamon',
  'permata',
  'jenius',
  'gopay',
  'ovo',
  'dana',
  'shopeepay',
  'linkaja',
  'qris',
  'paypal',
  'visa',
  'mastercard',
  'kabari',
]);
/**
 * Brands that are also people's names (Dana, Permata, Bri): refused when written as the brand writes them (DANA,
 * D A N A) or beside a word a service calls itself by (Dana Official, Permata Care), not in "Dana Putri".
 */
const ALSO_NAMES = new Set(['dana', 'permata', 'bri']);
const SERVICE_WORDS = new Set([
  'official',
  'resmi',
  'cs',
  'customer',
  'service',
  'care',
  'layanan',
  'admin',
  'support',
  'help',
  'bantuan',
  'security',
  'keamanan',
  'pusat',
  'center',
  'centre',
  'wallet',
  'dompet',
  'pay',
  'verifikasi',
  'verify',
  'promo',
  'hadiah',
  'team',
  'tim',
]);

/**
 * The first bank or payment name in a display name, as written, or null. Matched as words, whatever the case, also
 * spelt out (B C A, B.C.A), run together (GoPay, Shopee Pay, HaloBCA) or in full-width letters.
 */
export function findBrand(name: string): string | null {
  // Words, with a capital inside a word starting a new one (HaloBCA, ShopeePay).
  const words = name
    .normalize('NFKC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const lower = words.map((word) => word.toLowerCase());
  const beside = lower.some((word) => SERVICE_WORDS.has(word));
  const brandAt = (key: string, written: string, deliberate: boolean) =>
    BRANDS.has(key) && (!ALSO_NAMES.has(key) || deliberate || beside || written === written.toUpperCase())
      ? written
      : null;

  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const single = brandAt(lower[index]!, word, false);
    if (single) return single;
    // Two words run together: Go Pay, Shopee Pay, Link Aja, Master Card (long enough not to be chance: Dan A).
    const next = words[index + 1];
    if (next && `${word}${next}`.length >= 5) {
      const pair = brandAt(`${lower[index]}${lower[index + 1]}`, `${word} ${next}`, false);
      if (pair) return pair;
    }
    // Letters spelt out one by one: B C A, B.C.A, D-A-N-A.
    let end = index;
    while (end < words.length && [...words[end]!].length === 1) end += 1;
    for (let from = index; end - index >= 2 && from < end - 1; from += 1) {
      for (let to = from + 2; to <= end; to += 1) {
        const spelt = brandAt(lower.slice(from, to).join(''), words.slice(from, to).join(' '), true);
        if (spelt) return spelt;
      }
    }
  }
  return null;
}

/**
 * What in a text a stranger reads could lure them away, or null: a link, then a phone number, then (for a display
 * name) a bank or payment name.
 */
export function findLure(text: string, { asName = false }: { asName?: boolean } = {}): Lure | null {
  const link = findLink(text);
  if (link) return { kind: 'link', found: link };
  const phone = findPhoneNumber(text);
  if (phone) return { kind: 'phone', found: phone };
  const brand = asName ? findBrand(text) : null;
  return brand ? { kind: 'brand', found: brand } : null;
}
