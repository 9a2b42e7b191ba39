import { apiPost } from '@kabari/shared/api/api-client';
import { logIn, logOut, resetPassword, sendResetCode } from './auth-api';
import { encryptPassword } from '@kabari/shared/account/password-encryption';

jest.mock('@kabari/shared/api/api-client', () => ({ apiPost: jest.fn() }));
jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (plain: string) => `rsa(${plain})`),
}));

const postMock = apiPost as jest.MockedFunction<typeof apiPost>;

describe('auth calls', () => {
  beforeEach(() => postMock.mockReset());

  it('logs in with the email and the encrypted password', async () => {
    postMock.mockResolvedValue({ user: { userCacheInfo: {} } });
    await expect(logIn('ana@example.com', 'secret1')).resolves.toEqual({ user: { userCacheInfo: {} } });
    expect(postMock).toHaveBeenCalledWith('/api/v1/auth/login', { email: 'ana@example.com', password: 'rsa(secret1)' });
    expect(encryptPassword).toHaveBeenCalledWith('secret1');
  });

  it('asks for a reset code with type 1, reads the success flag, and toasts nothing itself', async () => {
    postMock.mockResolvedValueOnce({ success: true }).mockResolvedValueOnce(null);
    await expect(sendResetCode('ana@example.com')).resolves.toBe(true);
    await expect(sendResetCode('ana@example.com')).resolves.toBe(false);
    expect(postMock).toHaveBeenCalledWith(
      '/api/v1/auth/sendCode',
      { email: 'ana@example.com', type: 1 },
      { toastErrors: false },
    );
  });

  it('resets with the email, the encrypted new password and the code; only the success flag is read', async () => {
    postMock.mockResolvedValue({ success: true, extra: 'ignored' });
    await expect(resetPassword('ana@example.com', 'new-secret', '123456')).resolves.toBe(true);
    expect(postMock).toHaveBeenCalledWith('/api/v1/auth/resetPassword', {
      email: 'ana@example.com',
      password: 'rsa(new-secret)',
      verificationCode: '123456',
    });
  });

  it('logs out with no token of its own: the browser sends the session cookie', async () => {
    postMock.mockResolvedValue({ success: true });
    await logOut();
    expect(postMock).toHaveBeenCalledWith('/api/v1/auth/logout', undefined, { toastErrors: false });
  });
});
