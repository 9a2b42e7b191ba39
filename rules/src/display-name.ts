import { findLure } from './lure-check';
import { DISPLAY_NAME_MAX_DIGITS, DISPLAY_NAME_MAX_LENGTH, type DisplayNameProblem } from './display-name-limits';

// The check itself (the limits and the problems' names are display-name-limits.ts, which a form can take alone: the
// lure check brings libphonenumber-js and its metadata, ~30 KB, which a sign-up form loads only when it checks a name).

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
