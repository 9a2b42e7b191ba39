import { findLure } from './lure-check';

/**
 * The display name is the one piece of a request's message the requester writes about themselves: "Kabari: <name>
 * asks to see your location". So it must look like a name and nothing else: letters of any script, spaces and the
 * punctuation names use, short, with no web address, email address or phone number that a recipient could follow
 * or call, and no bank's or payment service's name (nor Kabari's) to pass for one. The server holds every sign-up
 * and change of name to it; the web forms say the same problem before sending. Each side words it in its own texts.
 */
export const DISPLAY_NAME_MAX_LENGTH = 40;
/** Enough for "Budi 2" or "Rina 1990", too few for a phone number or a bank's short code. */
export const DISPLAY_NAME_MAX_DIGITS = 4;

export type DisplayNameProblem =
  'empty' | 'withLink' | 'withPhone' | 'withBrand' | 'characters' | 'digits' | 'tooLong' | 'noLetter';

// Letters and their combining marks of any script, decimal digits, the space, . , ' ’ and -.
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{Nd} .,'\u2019-]*$/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/gu;

/** The name as stored: composed characters (NFC), no spaces at the ends, single spaces inside. */
export function normaliseDisplayName(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** What is wrong with a display name (once normalised), or null when it is a name. */
export function displayNameProblem(value: string): DisplayNameProblem | null {
  const name = normaliseDisplayName(value);
  if (name === '') return 'empty';
  // A lure first: "verify: https://…" is refused for what it is, not for its colon; "Call 0812…" for its number.
  const lure = findLure(name, { asName: true });
  if (lure?.kind === 'link') return 'withLink';
  if (lure?.kind === 'phone') return 'withPhone';
  if (lure?.kind === 'brand') return 'withBrand';
  if (!NAME_CHARACTERS.test(name)) return 'characters';
  if ((name.match(DIGIT)?.length ?? 0) > DISPLAY_NAME_MAX_DIGITS) return 'digits';
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) return 'tooLong';
  if (!LETTER.test(name)) return 'noLetter';
  return null;
}
