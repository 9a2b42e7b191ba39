import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import '../../i18n/host-namespace';
import { showToast } from '@kabari/shared/ui/toasts';
import ResetPasswordDialog from './reset-password-dialog';
import { fakeApi } from '../../../../jest/fake-api';

// The RSA step is the shared module's own business (tested there): here a password shows through as rsa(…).
jest.mock('@kabari/shared/account/password-encryption', () => ({
  ...jest.requireActual<object>('@kabari/shared/account/password-encryption'),
  encryptPassword: jest.fn(async (password: string) => `rsa(${password})`),
}));
jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));

const sendCodeCalls = () => fakeApi.calls('post', '/api/v1/auth/sendCode');
const resetCalls = () => fakeApi.calls('post', '/api/v1/auth/resetPassword');
// A 200 without the success flag: the code was not sent.
const noSuccessFlag = null as unknown as { success: true };
const toastMock = showToast as jest.MockedFunction<typeof showToast>;

async function openResetAt(url: string) {
  await initI18n(localeFromPath(url));
  useOverlayStore.getState().set('resetPwd', true);
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <ResetPasswordDialog />
      </MemoryRouter>,
    );
  });
}

// antd's modal and form in jsdom take a second or two per test; more on a busy machine.
jest.setTimeout(30_000);

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: /^(Reset|Confirm|Atur ulang|Konfirmasi)$/ });

async function reachStepTwo(email = 'ana@example.com') {
  fakeApi.on('post', '/api/v1/auth/sendCode', { success: true });
  await userEvent.type(field('Email'), email);
  await userEvent.click(submitButton());
  await screen.findByLabelText('New password', { selector: 'input' });
}

describe('ResetPasswordDialog', () => {
  beforeEach(() => toastMock.mockReset());
  afterEach(() => {
    cleanup();
    useOverlayStore.setState({ open: { login: false, resetPwd: false, searching: false, payment: false } });
  });

  it('asks only for the email first, with a Reset button; nothing happens while it is empty', async () => {
    await openResetAt('/');
    expect(field('Email')).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Verification code')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    expect(fakeApi.called()).toEqual([]);
  });

  it('sends the code for the trimmed email, then adds the new password and code fields, with Confirm', async () => {
    await openResetAt('/');
    await reachStepTwo('  ana@example.com  ');
    expect(sendCodeCalls().map((call) => call.body)).toEqual([{ email: 'ana@example.com', type: 1 }]);
    expect(toastMock).toHaveBeenCalledWith(
      'success',
      'If an account uses this email, a verification code is on its way.',
    );
    expect(field('Email')).toHaveValue('ana@example.com');
    expect(field('Verification code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
  });

  it('says SendCodeFailed when the code is not sent, with the reason the server gave', async () => {
    await openResetAt('/id/');
    fakeApi.on('post', '/api/v1/auth/sendCode', noSuccessFlag);
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Atur ulang' }));
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith('error', 'Kode verifikasi tidak dapat dikirim.'));

    fakeApi.on('post', '/api/v1/auth/sendCode', fakeApi.fail(429, 'Too many codes requested for this email.'));
    await userEvent.click(screen.getByRole('button', { name: 'Atur ulang' }));
    await waitFor(() =>
      expect(toastMock).toHaveBeenLastCalledWith(
        'error',
        'Kode verifikasi tidak dapat dikirim. Too many codes requested for this email.',
      ),
    );
    expect(screen.queryByLabelText('Kata sandi baru')).not.toBeInTheDocument();
    expect(sendCodeCalls()).toHaveLength(2);
    // The dialog says it once: the API client does not toast the refusal too.
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
  });

  it('says SendCodeFailed, without a reason, when Kabari cannot be reached', async () => {
    fakeApi.on('post', '/api/v1/auth/sendCode', fakeApi.unreachable());
    await openResetAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith('error', 'The verification code could not be sent.'));
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('says PleaseEnterCode when the new password or the code is missing', async () => {
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toastMock).toHaveBeenLastCalledWith('error', 'Please enter the verification code'));
    expect(await screen.findByText('Please input a your new password')).toBeInTheDocument();
    expect(await screen.findByText('Please input a your verification code')).toBeInTheDocument();

    toastMock.mockClear();
    await userEvent.type(field('New password'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith('error', 'Please enter the verification code'));
    expect(resetCalls()).toEqual([]);
  });

  it('resets, then toasts, clears, returns to step one and closes', async () => {
    fakeApi.on('post', '/api/v1/auth/resetPassword', { success: true });
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.type(field('New password'), ' new-secret ');
    await userEvent.type(field('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(useOverlayStore.getState().open.resetPwd).toBe(false));
    expect(resetCalls().map((call) => call.body)).toEqual([
      { email: 'ana@example.com', password: 'rsa(new-secret)', verificationCode: '123456' },
    ]);
    expect(toastMock).toHaveBeenLastCalledWith('success', 'Your password has been reset. You can log in with it now.');
    act(() => useOverlayStore.getState().set('resetPwd', true));
    expect(field('Email')).toHaveValue('');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeInTheDocument();
  });

  it('stays on step two when the reset is refused', async () => {
    const refusal = 'The verification code is incorrect or has expired.';
    fakeApi.on('post', '/api/v1/auth/resetPassword', fakeApi.fail(400, refusal));
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.type(field('New password'), 'new-secret');
    await userEvent.type(field('Verification code'), '000000{Enter}');
    await waitFor(() => expect(resetCalls()).toHaveLength(1));
    // The API client says the server's reason.
    await waitFor(() => expect(fakeApi.effects.toastError).toHaveBeenCalledWith(refusal));
    expect(useOverlayStore.getState().open.resetPwd).toBe(true);
    expect(screen.getByRole('button', { name: /Confirm/ })).toBeInTheDocument();
  });

  it('does not close on Escape; closing it starts over at step one', async () => {
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.keyboard('{Escape}');
    expect(useOverlayStore.getState().open.resetPwd).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(useOverlayStore.getState().open.resetPwd).toBe(false);
    act(() => useOverlayStore.getState().set('resetPwd', true));
    expect(field('Email')).toHaveValue('');
    expect(screen.queryByLabelText('Verification code')).not.toBeInTheDocument();
  });
});
