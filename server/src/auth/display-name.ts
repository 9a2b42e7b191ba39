import { z } from 'zod';
import { findLink } from '../lib/link-detector';
import { defineMessages, sayCommon, type Locale, type LocalizedText } from '../lib/messages';

/**
 * The display name is the one piece of a request's message the requester writes about themselves: "Kabari: <name>
 * asks to see your location". So it must look like a name and nothing else: letters of any script, spaces and the
 * punctuation names use, short, with no web address, email address or phone number that a recipient could follow
 * or call. The same rule holds at sign-up and at a change of name; the web forms check it too, with the same texts.
 */
export const DISPLAY_NAME_MAX_LENGTH = 40;
/** Enough for "Budi 2" or "Rina 1990", too few for a phone number or a bank's short code. */
export const DISPLAY_NAME_MAX_DIGITS = 4;

// Letters and their combining marks of any script, decimal digits, the space, . , ' ’ and -.
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{Nd} .,'\u2019-]*$/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/gu;

export const sayDisplayName = defineMessages(
  {
    tooLong: `The name can be at most ${DISPLAY_NAME_MAX_LENGTH} characters`,
    withLink: 'A name cannot contain a web address or an email address',
    characters: "A name can contain only letters, spaces and the marks . , ' -",
    digits: `A name can contain at most ${DISPLAY_NAME_MAX_DIGITS} digits`,
    noLetter: 'A name must contain at least one letter',
    notSendable:
      'Your display name cannot appear in a message to someone else: {problem}. Change it in My subscription, ' +
      'under Account, then send again.',
  },
  {
    tooLong: `Nama paling banyak ${DISPLAY_NAME_MAX_LENGTH} karakter`,
    withLink: 'Nama tidak boleh berisi alamat web atau alamat email',
    characters: "Nama hanya boleh berisi huruf, spasi, dan tanda . , ' -",
    digits: `Nama paling banyak berisi ${DISPLAY_NAME_MAX_DIGITS} angka`,
    noLetter: 'Nama harus berisi setidaknya satu huruf',
    notSendable:
      'Nama tampilan Anda tidak bisa dipakai dalam pesan kepada orang lain: {problem}. Ubah di Langganan Saya, ' +
      'bagian Akun, lalu kirim lagi.',
  },
);

/** The name as stored: composed characters (NFC), no spaces at the ends, single spaces inside. */
export function normaliseDisplayName(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** What is wrong with a (normalised) display name, in both languages; null when it is a name. */
export function displayNameProblem(name: string): LocalizedText | null {
  if (name === '') return sayCommon('fillInName');
  // A link first: "verify: https://…" is refused for what it is, not for its colon.
  if (findLink(name)) return sayDisplayName('withLink');
  if (!NAME_CHARACTERS.test(name)) return sayDisplayName('characters');
  if ((name.match(DIGIT)?.length ?? 0) > DISPLAY_NAME_MAX_DIGITS) return sayDisplayName('digits');
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) return sayDisplayName('tooLong');
  if (!LETTER.test(name)) return sayDisplayName('noLetter');
  return null;
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
  .string({ message: sayCommon('fillInName').en })
  // Bounds the work before the checks; anything this long is refused for its length anyway.
  .max(DISPLAY_NAME_MAX_LENGTH * 8, sayDisplayName('tooLong').en)
  .transform(normaliseDisplayName)
  .superRefine((name, context) => {
    const problem = displayNameProblem(name);
    if (problem) context.addIssue({ code: 'custom', message: problem.en });
  });
