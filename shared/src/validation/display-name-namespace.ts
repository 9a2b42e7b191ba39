import type { TFunction } from 'i18next';
import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './display-name.en.json';
import id from './display-name.id.json';
import {
  DISPLAY_NAME_MAX_DIGITS,
  DISPLAY_NAME_MAX_LENGTH,
  type DisplayNameProblem,
} from '@kabari/rules/display-name-limits';

// What the sign-up and account forms say about a display name: they load with those forms.
export const displayNameNamespace = 'display-name';
registerNamespace(displayNameNamespace, { en, id });

/** The problem's text in the page's language (`t` of useTranslation(displayNameNamespace)). */
export function displayNameProblemText(t: TFunction<'display-name'>, problem: DisplayNameProblem): string {
  return t(problem, { max: problem === 'digits' ? DISPLAY_NAME_MAX_DIGITS : DISPLAY_NAME_MAX_LENGTH });
}
