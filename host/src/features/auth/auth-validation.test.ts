import {
  canSubmitLogin,
  emailProblem,
  missingResetFields,
  newPasswordTooShortOrLong,
  trimmed,
} from './auth-validation';

describe('login and reset validation', () => {
  it('trims what the user typed', () => {
    expect(trimmed('  ana@example.com \n')).toBe('ana@example.com');
    expect(trimmed(undefined)).toBe('');
  });

  it('asks for an email when empty or blank, and gives the EnterValidEmail hint when malformed', () => {
    expect(emailProblem('')).toBe('enterEmail');
    expect(emailProblem('   ')).toBe('enterEmail');
    expect(emailProblem(undefined)).toBe('enterEmail');
    expect(emailProblem('ana@example')).toBe('enterValidEmail');
    expect(emailProblem(' ana@example.com ')).toBeNull();
  });

  it('submits a login only with a valid email and a password', () => {
    expect(canSubmitLogin({ email: 'ana@example.com', password: 'secret1' })).toBe(true);
    expect(canSubmitLogin({ email: 'ana@example.com', password: '   ' })).toBe(false);
    expect(canSubmitLogin({ email: 'ana@', password: 'secret1' })).toBe(false);
    expect(canSubmitLogin({})).toBe(false);
  });

  it('needs both the new password and the code in step two', () => {
    expect(missingResetFields({ newPassword: 'secret1', code: '123456' })).toEqual([]);
    expect(missingResetFields({ newPassword: ' ', code: '123456' })).toEqual(['newPassword']);
    expect(missingResetFields({})).toEqual(['newPassword', 'code']);
  });

  it("checks the new password against the server's bounds, not when empty", () => {
    expect(newPasswordTooShortOrLong('')).toBe(false);
    expect(newPasswordTooShortOrLong('1234567')).toBe(true);
    expect(newPasswordTooShortOrLong('12345678')).toBe(false);
    expect(newPasswordTooShortOrLong('x'.repeat(129))).toBe(true);
  });
});
