import { findLure } from './lure-check';

/**
 * The display name is what recipients read in "Kabari: <name> asks to see your location", so it must look like a
 * name: letters of any script, spaces and . , ' -, at most 40 characters and 4 digits, with no web or email
 * address or phone number, and no bank's or payment service's name (nor Kabari's). The server holds the same rule
 * (and refuses what this misses); the forms say it before sending.
 */
export const DISPLAY_NAME_MAX_LENGTH = 40;
export const DISPLAY_NAME_MAX_DIGITS = 4;

export type DisplayNameProblem =
  'empty' | 'withLink' | 'withPhone' | 'withBrand' | 'characters' | 'digits' | 'tooLong' | 'noLetter';

const NAME_CHARACTERS = /^[\p{L}\p{M}\p{Nd} .,'\u2019-]*$/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/gu;

/** The name as the server stores it: composed characters, no spaces at the ends, single spaces inside. */
export function normaliseDisplayName(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** What is wrong with a display name (the key of its text in the display-name namespace), or null. */
export function displayNameProblem(value: string): DisplayNameProblem | null {
  const name = normaliseDisplayName(value);
  if (name === '') return 'empty';
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
