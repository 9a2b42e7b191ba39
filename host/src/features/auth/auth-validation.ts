import { isValidEmail } from '@kabari/shared/validation/email';

/** What the user typed, without surrounding spaces. */
export function trimmed(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export type EmailProblem = 'enterEmail' | 'enterValidEmail';

/** Empty: 'Please enter your email address'; non-empty but malformed: the EnterValidEmail hint. */
export function emailProblem(value: unknown): EmailProblem | null {
  const email = trimmed(value);
  if (!email) return 'enterEmail';
  return isValidEmail(email) ? null : 'enterValidEmail';
}

export interface LoginValues {
  email?: string;
  password?: string;
}

/** Login is submitted only with a valid email and a password. */
export function canSubmitLogin(values: LoginValues): boolean {
  return emailProblem(values.email) === null && trimmed(values.password) !== '';
}

export interface ResetValues {
  email?: string;
  newPassword?: string;
  code?: string;
}

/** Step two needs both the new password and the code; otherwise the PleaseEnterCode toast. */
export function missingResetFields(values: ResetValues): Array<'newPassword' | 'code'> {
  const missing: Array<'newPassword' | 'code'> = [];
  if (!trimmed(values.newPassword)) missing.push('newPassword');
  if (!trimmed(values.code)) missing.push('code');
  return missing;
}

// The server's bounds (server/src/auth/passwords.ts), checked here too so the hint is in the user's language.
export const newPasswordBounds = { min: 8, max: 128 } as const;

export function newPasswordTooShortOrLong(value: unknown): boolean {
  const password = trimmed(value);
  if (!password) return false;
  const length = [...password].length;
  return length < newPasswordBounds.min || length > newPasswordBounds.max;
}
