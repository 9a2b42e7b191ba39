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
