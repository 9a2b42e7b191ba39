import { logIn, logOut, resetPassword, sendResetCode } from './auth-api';
import { encryptPassword } from '@kabari/shared/account/password-encryption';
import { fakeApi } from '../../../../jest/fake-api';

jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (plain: string) => `rsa(${plain})`),
}));

const user = {
  userCacheInfo: {
    id: 'u1',
    email: 'ana@example.com',
    displayName: 'Ana',
    phone: null,
    locale: 'en' as const,
    createdAt: '2026-11-01T10:00:00.000Z',
  },
};

describe('auth calls', () => {
  it('logs in with the email and the encrypted password', async () => {
    fakeApi.on('post', '/api/v1/auth/login', { user });
    await expect(logIn('ana@example.com', 'secret1')).resolves.toEqual({ user });
    expect(fakeApi.calls('post', '/api/v1/auth/login').map((call) => call.body)).toEqual([
      { email: 'ana@example.com', password: 'rsa(secret1)' },
    ]);
    expect(encryptPassword).toHaveBeenCalledWith('secret1');
  });

  it('asks for a reset code with type 1, reads the success flag, and toasts nothing itself', async () => {
    // A success, then an answer without the flag.
    const answers = [{ success: true as const }, null];
    fakeApi.on('post', '/api/v1/auth/sendCode', () => answers.shift() as { success: true });
    await expect(sendResetCode('ana@example.com')).resolves.toBe(true);
    await expect(sendResetCode('ana@example.com')).resolves.toBe(false);
    const [call] = fakeApi.calls('post', '/api/v1/auth/sendCode');
    expect(call?.body).toEqual({ email: 'ana@example.com', type: 1 });
    expect(call?.options).toEqual({ toastErrors: false });
    // A refusal is the dialog's to say: the API client does not toast it too.
    fakeApi.on('post', '/api/v1/auth/sendCode', fakeApi.fail(400, 'No account with this email'));
    await expect(sendResetCode('ana@example.com')).rejects.toThrow('No account with this email');
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
  });

  it('resets with the email, the encrypted new password and the code; only the success flag is read', async () => {
    const answer = { success: true, extra: 'ignored' } as const;
    fakeApi.on('post', '/api/v1/auth/resetPassword', answer);
    await expect(resetPassword('ana@example.com', 'new-secret', '123456')).resolves.toBe(true);
    expect(fakeApi.calls('post', '/api/v1/auth/resetPassword').map((call) => call.body)).toEqual([
      { email: 'ana@example.com', password: 'rsa(new-secret)', verificationCode: '123456' },
    ]);
  });

  it('logs out with no token of its own: the browser sends the session cookie', async () => {
    fakeApi.on('post', '/api/v1/auth/logout', { success: true });
    await logOut();
    const [call] = fakeApi.calls('post', '/api/v1/auth/logout');
    expect(call?.body).toBeUndefined();
    expect(call?.options).toEqual({ toastErrors: false });
    expect(call?.headers).not.toHaveProperty('authorization');
  });
});
