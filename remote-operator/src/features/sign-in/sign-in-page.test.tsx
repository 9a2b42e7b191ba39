import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encryptPassword } from '@kabari/shared/account/password-encryption';
import { fill } from '../../testing/fill';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { SignInPage } from './sign-in-page';

// The password travels encrypted with the server's public key, as a subscriber's does.
jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (password: string) => `encrypted(${password})`),
  PasswordEncryptionError: class extends Error {},
}));

async function fillIn(code = '123456') {
  await fill(screen.getByLabelText('Email address'), 'desk@kabari.example');
  await fill(screen.getByLabelText('Password'), 'a long passphrase');
  await fill(screen.getByLabelText('Authenticator code or recovery code'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the operator sign-in page', () => {
  afterEach(cleanup);

  it('signs in with the password and a code, then opens the page asked for', async () => {
    let signedIn = false;
    fakeApi.on('get', '/api/v1/operator/session', () =>
      signedIn ? operatorSession() : fakeApi.fail(404, 'Not Found'),
    );
    fakeApi.on('post', '/api/v1/operator/session', () => {
      signedIn = true;
      const { operator, expiresAt } = operatorSession();
      return { operator, expiresAt };
    });
    await renderInConsole('/operator/sign-in?next=%2Foperator%2Frefunds', '/sign-in', <SignInPage />);
    await fillIn('123 456');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/operator\/refunds$/));
    expect(fakeApi.calls('post', '/api/v1/operator/session').map((call) => call.body)).toEqual([
      { email: 'desk@kabari.example', password: 'encrypted(a long passphrase)', code: '123456' },
    ]);
    expect(encryptPassword).toHaveBeenCalledWith('a long passphrase');
  });

  it('sends nothing when the password cannot be encrypted (the key could not be fetched), and keeps the code', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    jest.mocked(encryptPassword).mockRejectedValueOnce(new Error('Network Error'));
    await renderInConsole('/id/operator/sign-in', '/sign-in', <SignInPage />);
    await fill(screen.getByLabelText('Alamat email'), 'desk@kabari.example');
    await fill(screen.getByLabelText('Kata sandi'), 'a long passphrase');
    await fill(screen.getByLabelText('Kode autentikator atau kode pemulihan'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Masuk' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Kata sandi Anda tidak dapat diamankan untuk dikirim. Periksa koneksi Anda, lalu coba lagi.',
    );
    expect(screen.getByLabelText('Kode autentikator atau kode pemulihan')).toHaveValue('123456');
    expect(fakeApi.calls('post', '/api/v1/operator/session')).toHaveLength(0);
  });

  it('never follows a next address outside the console', async () => {
    let signedIn = false;
    fakeApi.on('get', '/api/v1/operator/session', () =>
      signedIn ? operatorSession() : fakeApi.fail(404, 'Not Found'),
    );
    fakeApi.on('post', '/api/v1/operator/session', () => {
      signedIn = true;
      const { operator, expiresAt } = operatorSession();
      return { operator, expiresAt };
    });
    await renderInConsole('/id/operator/sign-in?next=https%3A%2F%2Fevil.example', '/sign-in', <SignInPage />);
    await fill(screen.getByLabelText('Alamat email'), 'desk@kabari.example');
    await fill(screen.getByLabelText('Kata sandi'), 'a long passphrase');
    await fill(screen.getByLabelText('Kode autentikator atau kode pemulihan'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Masuk' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/id\/operator$/));
  });

  it('says one generic thing for a wrong email, password or code, and empties the code', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    fakeApi.on('post', '/api/v1/operator/session', fakeApi.fail(401, 'Unauthorized'));
    await renderInConsole('/operator/sign-in', '/sign-in', <SignInPage />);
    await fillIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('The email address, password or code is not right.');
    expect(screen.getByLabelText('Authenticator code or recovery code')).toHaveValue('');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/operator\/sign-in$/);
  });

  it("shows the server's wait when attempts are throttled", async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    fakeApi.on('post', '/api/v1/operator/session', fakeApi.fail(429, 'Too many attempts. Try again in 15 minutes.'));
    await renderInConsole('/operator/sign-in', '/sign-in', <SignInPage />);
    await fillIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 15 minutes.');
  });
});
