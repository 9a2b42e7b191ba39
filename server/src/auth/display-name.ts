import { z } from 'zod';
import { findLure } from '../lib/lure-check';
import { inputMessage, messagesOf, textOf, type Locale, type LocalizedText } from '../lib/messages';

/**
 * The display name is the one piece of a request's message the requester writes about themselves: "Kabari: <name>
 * asks to see your location". So it must look like a name and nothing else: letters of any script, spaces and the
 * punctuation names use, short, with no web address, email address or phone number that a recipient could follow
 * or call, and no bank's or payment service's name (nor Kabari's) to pass for one. The same rule holds at sign-up
 * and at a change of name; the web forms check it too, with the same texts.
 */
export const DISPLAY_NAME_MAX_LENGTH = 40;
/** Enough for "Budi 2" or "Rina 1990", too few for a phone number or a bank's short code. */
export const DISPLAY_NAME_MAX_DIGITS = 4;

// Letters and their combining marks of any script, decimal digits, the space, . , ' ’ and -.
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{Nd} .,'\u2019-]*$/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/gu;

export const sayDisplayName = messagesOf('displayName');

/** The name as stored: composed characters (NFC), no spaces at the ends, single spaces inside. */
export function normaliseDisplayName(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** What is wrong with a (normalised) display name: the key of its text and the text's parameters; null for a name. */
function displayNameIssue(name: string): Parameters<typeof inputMessage> | null {
  if (name === '') return ['common.fillInName'];
  // A lure first: "verify: https://…" is refused for what it is, not for its colon; "Call 0812…" for its number.
  const lure = findLure(name, { asName: true });
  if (lure?.kind === 'link') return ['displayName.withLink'];
  if (lure?.kind === 'phone') return ['displayName.withPhone'];
  if (lure?.kind === 'brand') return ['displayName.withBrand'];
  if (!NAME_CHARACTERS.test(name)) return ['displayName.characters'];
  if ((name.match(DIGIT)?.length ?? 0) > DISPLAY_NAME_MAX_DIGITS)
    return ['displayName.digits', { maxDigits: DISPLAY_NAME_MAX_DIGITS }];
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) return ['displayName.tooLong', { max: DISPLAY_NAME_MAX_LENGTH }];
  if (!LETTER.test(name)) return ['displayName.noLetter'];
  return null;
}

/** What is wrong with a (normalised) display name, in both languages; null when it is a name. */
export function displayNameProblem(name: string): LocalizedText | null {
  const issue = displayNameIssue(name);
  return issue && textOf(...issue);
}

/**
 * Why a stored name (one saved before this rule) cannot go into a message, in both languages, or null. The
 * requester is told how to fix it; their account keeps working otherwise.
 */
export function unsendableNameProblem(displayName: string): LocalizedText | null {
  const problem = displayNameProblem(normaliseDisplayName(displayName));
  if (!problem) return null;
  const say = (locale: Locale) => sayDisplayName('notSendable', { problem: lowerFirst(problem[locale]) })[locale];
  return { en: say('en'), id: say('id') };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The display name in a sign-up or a change of name: normalised, then checked. */
export const displayNameField = z
  .string({ message: inputMessage('common.fillInName') })
  // Bounds the work before the checks; anything this long is refused for its length anyway.
  .max(DISPLAY_NAME_MAX_LENGTH * 8, inputMessage('displayName.tooLong', { max: DISPLAY_NAME_MAX_LENGTH }))
  .transform(normaliseDisplayName)
  .superRefine((name, context) => {
    const issue = displayNameIssue(name);
    if (issue) context.addIssue({ code: 'custom', message: inputMessage(...issue) });
  });
