import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encryptPassword, PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { fill } from '../../testing/fill';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { EnrolPage } from './enrol-page';

// The password travels encrypted with the server's public key, as a subscriber's does.
jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (password: string) => `encrypted(${password})`),
  PasswordEncryptionError: class extends Error {},
}));

const enrolment = {
  email: 'desk@kabari.example',
  secret: 'JBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Kabari:desk%40kabari.example?secret=JBSWY3DPEHPK3PXP&issuer=Kabari',
};
const codes = Array.from({ length: 10 }, (_value, index) => `code-${index}-abcd`);

describe('the enrolment page', () => {
  afterEach(cleanup);

  it('shows the authenticator secret, sets the password with a first code, then shows the recovery codes once', async () => {
    let enrolled = false;
    fakeApi.on('get', '/api/v1/operator/session', () =>
      enrolled ? operatorSession() : fakeApi.fail(404, 'Not Found'),
    );
    fakeApi.on('post', '/api/v1/operator/enrolment/begin', enrolment);
    fakeApi.on('post', '/api/v1/operator/enrolment/finish', () => {
      enrolled = true;
      return { recoveryCodes: codes };
    });
    await renderInConsole('/operator/enrol#token=one-time-token', '/enrol', <EnrolPage />);

    expect(
      await screen.findByRole('img', { name: 'QR code that adds the Kabari operator account to an authenticator app' }),
    ).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/));
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/operator/enrolment/begin').map((call) => call.body)).toEqual([
      { token: 'one-time-token' },
    ]);

    await fill(screen.getByLabelText('Password'), 'short');
    await fill(screen.getByLabelText('Password again'), 'different');
    await fill(screen.getByLabelText('Code from the app'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setting up' }));
    expect(await screen.findByText('The password needs at least 12 characters.')).toBeInTheDocument();
    expect(screen.getByText('The two passwords are not the same.')).toBeInTheDocument();
    expect(screen.getByText('Enter the 6 digits the app shows.')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/operator/enrolment/finish')).toHaveLength(0);

    for (const label of ['Password', 'Password again', 'Code from the app'])
      await userEvent.clear(screen.getByLabelText(label));
    await fill(screen.getByLabelText('Password'), 'a long passphrase');
    await fill(screen.getByLabelText('Password again'), 'a long passphrase');
    await fill(screen.getByLabelText('Code from the app'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setting up' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(fakeApi.calls('post', '/api/v1/operator/enrolment/finish').map((call) => call.body)).toEqual([
      { token: 'one-time-token', password: 'encrypted(a long passphrase)', code: '123456' },
    ]);
    expect(encryptPassword).toHaveBeenCalledWith('a long passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'I have kept them: go to the console' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/operator$/));
  });

  it('sends nothing when the password cannot be encrypted, and keeps the code for another try', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    fakeApi.on('post', '/api/v1/operator/enrolment/begin', enrolment);
    // Too long for one RSA block, say.
    jest.mocked(encryptPassword).mockRejectedValueOnce(new PasswordEncryptionError());
    await renderInConsole('/operator/enrol#token=one-time-token', '/enrol', <EnrolPage />);
    await fill(await screen.findByLabelText('Password'), 'a long passphrase');
    await fill(screen.getByLabelText('Password again'), 'a long passphrase');
    await fill(screen.getByLabelText('Code from the app'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setting up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your password could not be protected for sending. Check your connection and try again.',
    );
    expect(screen.getByLabelText('Code from the app')).toHaveValue('123456');
    expect(fakeApi.calls('post', '/api/v1/operator/enrolment/finish')).toHaveLength(0);
  });

  it.each([
    [
      'a common password',
      'This password is one of the most common ones, so it is easy to guess. Please choose another.',
    ],
    [
      'a wrong code',
      "That code does not match the authenticator. Check that your phone's clock is right and enter the newest code.",
    ],
  ])('says why the server refused %s, in its words', async (_what, refusal) => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    fakeApi.on('post', '/api/v1/operator/enrolment/begin', enrolment);
    fakeApi.on('post', '/api/v1/operator/enrolment/finish', fakeApi.fail(400, refusal));
    await renderInConsole('/operator/enrol#token=one-time-token', '/enrol', <EnrolPage />);
    await fill(await screen.findByLabelText('Password'), 'a long passphrase');
    await fill(screen.getByLabelText('Password again'), 'a long passphrase');
    await fill(screen.getByLabelText('Code from the app'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setting up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    // Still on the form: the operator may try again.
    expect(screen.getByRole('button', { name: 'Finish setting up' })).toBeEnabled();
  });

  it('says when the link is unknown, used or expired', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    fakeApi.on('post', '/api/v1/operator/enrolment/begin', fakeApi.fail(404, 'Not Found'));
    await renderInConsole('/id/operator/enrol#token=used', '/enrol', <EnrolPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Tautan pendaftaran ini tidak dikenal, sudah dipakai, atau kedaluwarsa.',
    );
  });

  it('says when the link has no token, and asks the server nothing', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    await renderInConsole('/operator/enrol', '/enrol', <EnrolPage />);
    expect(screen.getByRole('alert')).toHaveTextContent('This enrolment link is incomplete.');
    expect(fakeApi.calls('post', '/api/v1/operator/enrolment/begin')).toHaveLength(0);
  });
});
