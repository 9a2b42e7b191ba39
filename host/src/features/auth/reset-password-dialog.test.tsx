import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '@kabari/shared/api/api-error';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import '../../i18n/host-namespace';
import { showToast } from '@kabari/shared/ui/toasts';
import { resetPassword, sendResetCode } from './auth-api';
import ResetPasswordDialog from './reset-password-dialog';

jest.mock('./auth-api', () => ({ sendResetCode: jest.fn(), resetPassword: jest.fn() }));
jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));

const sendCodeMock = sendResetCode as jest.MockedFunction<typeof sendResetCode>;
const resetMock = resetPassword as jest.MockedFunction<typeof resetPassword>;
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
  sendCodeMock.mockResolvedValue(true);
  await userEvent.type(field('Email'), email);
  await userEvent.click(submitButton());
  await screen.findByLabelText('New password', { selector: 'input' });
}

describe('ResetPasswordDialog', () => {
  beforeEach(() => {
    sendCodeMock.mockReset();
    resetMock.mockReset();
    toastMock.mockReset();
  });
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
    expect(sendCodeMock).not.toHaveBeenCalled();
  });

  it('sends the code for the trimmed email, then adds the new password and code fields, with Confirm', async () => {
    await openResetAt('/');
    await reachStepTwo('  ana@example.com  ');
    expect(sendCodeMock).toHaveBeenCalledWith('ana@example.com');
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
    sendCodeMock.mockResolvedValueOnce(false);
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Atur ulang' }));
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith('error', 'Kode verifikasi tidak dapat dikirim.'));

    sendCodeMock.mockRejectedValueOnce(new ApiError('Too many codes requested for this email.', 429));
    await userEvent.click(screen.getByRole('button', { name: 'Atur ulang' }));
    await waitFor(() =>
      expect(toastMock).toHaveBeenLastCalledWith(
        'error',
        'Kode verifikasi tidak dapat dikirim. Too many codes requested for this email.',
      ),
    );
    expect(screen.queryByLabelText('Kata sandi baru')).not.toBeInTheDocument();
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
    expect(resetMock).not.toHaveBeenCalled();
  });

  it('resets, then toasts, clears, returns to step one and closes', async () => {
    resetMock.mockResolvedValue(true);
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.type(field('New password'), ' new-secret ');
    await userEvent.type(field('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(useOverlayStore.getState().open.resetPwd).toBe(false));
    expect(resetMock).toHaveBeenCalledWith('ana@example.com', 'new-secret', '123456');
    expect(toastMock).toHaveBeenLastCalledWith('success', 'Your password has been reset. You can log in with it now.');
    act(() => useOverlayStore.getState().set('resetPwd', true));
    expect(field('Email')).toHaveValue('');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeInTheDocument();
  });

  it('stays on step two when the reset is refused', async () => {
    resetMock.mockRejectedValue(new ApiError('The verification code is incorrect or has expired.', 400));
    await openResetAt('/');
    await reachStepTwo();
    await userEvent.type(field('New password'), 'new-secret');
    await userEvent.type(field('Verification code'), '000000{Enter}');
    await waitFor(() => expect(resetMock).toHaveBeenCalled());
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
