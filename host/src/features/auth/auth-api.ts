import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { encryptPassword } from '@kabari/shared/account/password-encryption';

/** The signed-in user. The session token is not in it: the server sets it as an HttpOnly cookie. */
export type LoginResult = ApiData<'/api/v1/auth/login', 'post'>;

/**
 * POST /api/v1/auth/login. A wrong password rejects (the interceptors toast the server's message). A 403 is a
 * suspended account's refusal, not the subscription's: the dialog says it, instead of the expired page.
 */
export async function logIn(email: string, password: string): Promise<LoginResult> {
  return apiPost(
    '/api/v1/auth/login',
    { email, password: await encryptPassword(password) },
    { handledStatuses: [403] },
  );
}

/** Send-code type 1: password reset. */
export const resetCodeType = 1;

/**
 * POST /api/v1/auth/sendCode. Resolves with the success flag; the dialog says SendCodeFailed itself
 * (with the server's reason), so the interceptors do not toast too.
 */
export async function sendResetCode(email: string): Promise<boolean> {
  const data = await apiPost('/api/v1/auth/sendCode', { email, type: resetCodeType }, { toastErrors: false });
  return data?.success === true;
}

/** POST /api/v1/auth/resetPassword: only the success flag is read. */
export async function resetPassword(email: string, newPassword: string, verificationCode: string): Promise<boolean> {
  const data = await apiPost('/api/v1/auth/resetPassword', {
    email,
    password: await encryptPassword(newPassword),
    verificationCode,
  });
  return data?.success === true;
}

/** POST /api/v1/auth/logout: the server revokes the session the cookie names and clears it; nobody waits for it. */
export async function logOut(): Promise<void> {
  await apiPost('/api/v1/auth/logout', undefined, { toastErrors: false });
}
