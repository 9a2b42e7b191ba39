import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import '../../i18n/host-namespace';
import { LocationProbe } from '../../testing/location-probe';
import LoginDialog from './login-dialog';
import { signedInUser } from '../../../../jest/signed-in-user';
import { fakeApi } from '../../../../jest/fake-api';

// The RSA step is the shared module's own business (tested there): here a password shows through as rsa(…).
jest.mock('@kabari/shared/account/password-encryption', () => ({
  ...jest.requireActual<object>('@kabari/shared/account/password-encryption'),
  encryptPassword: jest.fn(async (password: string) => `rsa(${password})`),
}));
jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));

const loginCalls = () => fakeApi.calls('post', '/api/v1/auth/login');
const user = signedInUser();

async function openLoginAt(url: string) {
  await initI18n(localeFromPath(url));
  useOverlayStore.getState().set('login', true);
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <LoginDialog />
        <LocationProbe />
      </MemoryRouter>,
    );
  });
  return screen.getByRole('dialog');
}

// antd's modal and form in jsdom take a second or two per test; more on a busy machine.
jest.setTimeout(30_000);

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });

describe('LoginDialog', () => {
  afterEach(() => {
    cleanup();
    clearSession();
    useOverlayStore.setState({ open: { login: false, resetPwd: false, searching: false, payment: false } });
  });

  it('submits nothing while empty, and says what is missing', async () => {
    await openLoginAt('/');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Please input a your password')).toBeInTheDocument();
    expect(fakeApi.called()).toEqual([]);
  });

  it('gives the EnterValidEmail hint for a malformed email, and drops it once corrected', async () => {
    await openLoginAt('/');
    await userEvent.type(field('Email'), 'ana@example');
    await userEvent.tab();
    expect(await screen.findByText('Enter valid email address')).toBeInTheDocument();
    await userEvent.type(field('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(fakeApi.called()).toEqual([]);
    await userEvent.type(field('Email'), '.com');
    await waitFor(() => expect(screen.queryByText('Enter valid email address')).not.toBeInTheDocument());
  });

  it('goes back to the page the guard sent the visitor from, and never to an address elsewhere', async () => {
    fakeApi.on('post', '/api/v1/auth/login', { user });
    await openLoginAt('/id/?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription%3Frenew%3D1');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Kata sandi'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Masuk' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/modules/MySubscription?renew=1'),
    );
    cleanup();
    clearSession();

    await openLoginAt('/?next=%2F%2Fevil.example%2Fdashboard');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard\/$/));
  });

  it('signs in with trimmed inputs: saves the user (the server set the cookie), goes to the dashboard, closes', async () => {
    fakeApi.on('post', '/api/v1/auth/login', { user });
    await openLoginAt('/id/');
    await userEvent.type(field('Email'), '  ana@example.com ');
    await userEvent.type(field('Kata sandi'), ' secret1 ');
    await userEvent.click(screen.getByRole('button', { name: 'Masuk' }));
    await waitFor(() => expect(useOverlayStore.getState().open.login).toBe(false));
    expect(loginCalls().map((call) => call.body)).toEqual([{ email: 'ana@example.com', password: 'rsa(secret1)' }]);
    expect(useUserStore.getState().user).toEqual(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/'));
  });

  it('blocks a second submit while the first runs, with a spinner', async () => {
    let finish: (value: { user: typeof user }) => void = () => {};
    fakeApi.on('post', '/api/v1/auth/login', () => new Promise((resolve) => (finish = resolve)));
    await openLoginAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Password'), 'secret1{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: /Log in/ })).toHaveClass('ant-btn-loading'));
    await userEvent.type(field('Password'), '{Enter}');
    await userEvent.click(screen.getByRole('button', { name: /Log in/ }));
    expect(loginCalls()).toHaveLength(1);
    await act(async () => finish({ user }));
  });

  it('stays open when the login is refused, and adds no message of its own', async () => {
    const { showToast } = jest.requireMock('@kabari/shared/ui/toasts') as { showToast: jest.Mock };
    showToast.mockClear();
    fakeApi.on('post', '/api/v1/auth/login', fakeApi.fail(400, 'Incorrect email or password.'));
    await openLoginAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Password'), 'wrong-one{Enter}');
    await waitFor(() => expect(loginCalls()).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).not.toHaveClass('ant-btn-loading'));
    expect(useOverlayStore.getState().open.login).toBe(true);
    expect(useUserStore.getState().user).toBeNull();
    // The API client says the server's reason; the dialog adds nothing.
    expect(fakeApi.effects.toastError).toHaveBeenCalledWith('Incorrect email or password.');
    expect(showToast).not.toHaveBeenCalled();
  });

  it("says a suspended account's refusal (403) itself, and stays open", async () => {
    const { showToast } = jest.requireMock('@kabari/shared/ui/toasts') as { showToast: jest.Mock };
    showToast.mockClear();
    const message = 'Your account has been suspended after a report of misuse.';
    fakeApi.on('post', '/api/v1/auth/login', fakeApi.fail(403, message));
    await openLoginAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Password'), 'right-one{Enter}');
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('error', message));
    // Said once, by the dialog: the API client leaves a 403 here to it.
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
    expect(fakeApi.effects.forbidden).not.toHaveBeenCalled();
    expect(useOverlayStore.getState().open.login).toBe(true);
    expect(useUserStore.getState().user).toBeNull();
  });

  it('does not close on Escape; the close button closes it and clears both fields', async () => {
    await openLoginAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Password'), 'secret1');
    await userEvent.keyboard('{Escape}');
    expect(useOverlayStore.getState().open.login).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(useOverlayStore.getState().open.login).toBe(false);
    act(() => useOverlayStore.getState().set('login', true));
    expect(field('Email')).toHaveValue('');
    expect(field('Password')).toHaveValue('');
  });

  it('the forgot-password link closes login and opens the reset dialog', async () => {
    await openLoginAt('/');
    await userEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(useOverlayStore.getState().open).toEqual(expect.objectContaining({ login: false, resetPwd: true }));
  });
});
