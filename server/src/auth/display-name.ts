import { z } from 'zod';
import { displayNameProblem as problemOfName, normaliseDisplayName } from '@kabari/rules/display-name';
import {
  DISPLAY_NAME_MAX_DIGITS,
  DISPLAY_NAME_MAX_LENGTH,
  type DisplayNameProblem,
} from '@kabari/rules/display-name-limits';
import { inputMessage, messagesOf, textOf, type Locale, type LocalizedText } from '../lib/messages';

// The rule itself is the one the web forms apply (@kabari/rules/display-name); the server words each problem in
// its own texts (server/src/i18n, section displayName) and holds every sign-up and change of name to it.

export const sayDisplayName = messagesOf('displayName');

/** The key of each problem's text and the text's parameters. */
const problemText: Record<DisplayNameProblem, Parameters<typeof inputMessage>> = {
  empty: ['common.fillInName'],
  withLink: ['displayName.withLink'],
  withPhone: ['displayName.withPhone'],
  withBrand: ['displayName.withBrand'],
  characters: ['displayName.characters'],
  digits: ['displayName.digits', { maxDigits: DISPLAY_NAME_MAX_DIGITS }],
  tooLong: ['displayName.tooLong', { max: DISPLAY_NAME_MAX_LENGTH }],
  noLetter: ['displayName.noLetter'],
};

/** What is wrong with a display name: the key of its text and the text's parameters; null for a name. */
function displayNameIssue(name: string): Parameters<typeof inputMessage> | null {
  const problem = problemOfName(name);
  return problem && problemText[problem];
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
