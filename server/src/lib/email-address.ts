// What makes an email address one Kabari can write to, for the sign-in and sign-up forms' schemas and for the
// rules that take an address outside a form (a send's limit check).

/** The longest address mail servers accept. */
export const EMAIL_MAX_LENGTH = 254;

/** Something before and after one @, and a dot in the domain: the typos people make, not RFC 5322. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The address as Kabari keeps it (trimmed, lower case), or what is wrong with it, named as the forms' messages
 * are: nothing typed, or not an address.
 */
export function normalEmail(
  input: string,
): { ok: true; email: string } | { ok: false; problem: 'enterEmail' | 'enterValidEmail' } {
  const email = input.trim().toLowerCase();
  if (email.length === 0) return { ok: false, problem: 'enterEmail' };
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return { ok: false, problem: 'enterValidEmail' };
  return { ok: true, email };
}
