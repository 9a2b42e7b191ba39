import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { apiPost, apiRawGet } from '@kabari/shared/api/api-client';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter, useLocation } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../../jest/render-with-i18n';
import RegisterResultPage from './register-result-page';

jest.mock('@kabari/shared/api/api-client', () => ({ apiPost: jest.fn(), apiRawGet: jest.fn(), apiGet: jest.fn() }));

const rawMock = apiRawGet as jest.MockedFunction<typeof apiRawGet>;
const postMock = apiPost as jest.MockedFunction<typeof apiPost>;
const answer = (data: unknown) => ({ data: { status: 200, message: 'ok', data } }) as never;

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

async function openAt(url: string) {
  await initI18n(localeFromPath(url));
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <RegisterResultPage />
        <Where />
      </MemoryRouter>,
    );
  });
}

jest.setTimeout(30_000);

describe('RegisterResultPage', () => {
  afterEach(() => {
    cleanup();
    rawMock.mockReset();
    postMock.mockReset();
    clearSession();
  });

  it('says plainly that there is no sign-up to show, with a way home in the same language', async () => {
    await renderAt('/id/register', <RegisterResultPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Pendaftaran Anda');
    expect(screen.getByRole('link')).toHaveAttribute('href', '/id/');
    expect(rawMock).not.toHaveBeenCalled();
  });

  it('polls while the payment is queried, then signs the new user in and opens the welcome dialog', async () => {
    rawMock
      .mockResolvedValueOnce(answer({ state: 'querying' }))
      .mockResolvedValueOnce(answer({ state: 'created', authCode: 'code-1234567890abcdef' }));
    postMock.mockResolvedValue({ user: { userCacheInfo: { displayName: 'Ana' } } });
    await openAt('/id/register?id=reg-1');
    expect(screen.getByText('Pembayaran Anda sedang dikonfirmasi…')).toBeInTheDocument();
    await waitFor(
      () => expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/modules/SuccessModal'),
      {
        timeout: 10_000,
      },
    );
    expect(rawMock).toHaveBeenCalledWith(
      '/api/v1/personnal/registerQuery/{id}',
      expect.objectContaining({ path: { id: 'reg-1' } }),
    );
    expect(postMock).toHaveBeenCalledTimes(1);
    expect(postMock).toHaveBeenCalledWith(
      '/api/v1/auth/loginByAuthCode',
      { authCode: 'code-1234567890abcdef' },
      expect.anything(),
    );
    expect(useUserStore.getState().user).toEqual({ userCacheInfo: { displayName: 'Ana' } });
  });

  it('shows the decline message when signing failed', async () => {
    rawMock.mockResolvedValue(
      answer({ state: 'sign_failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.' }),
    );
    await openAt('/register?id=reg-2');
    expect(await screen.findByText('The payment did not go through, so no account was created.')).toBeInTheDocument();
    expect(screen.getByText('Reason: Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again with another card' })).toBeInTheDocument();
  });

  it('says when the automatic login failed, and offers the login dialog', async () => {
    rawMock.mockResolvedValue(answer({ state: 'created', authCode: 'code-1234567890abcdef' }));
    postMock.mockRejectedValue(new Error('authCode is not valid'));
    await openAt('/register?id=reg-3');
    expect(await screen.findByText(/could not sign you in automatically/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(useUserStore.getState().user).toBeNull();
  });

  it('says in Indonesian that an abandoned payment ended the sign-up, with the reason and a way to start again', async () => {
    rawMock.mockResolvedValue(
      answer({
        state: 'unsubscribed',
        failureCode: 'payment_abandoned',
        failureMessage: 'Pembayaran tidak diselesaikan tepat waktu sehingga dihentikan.',
      }),
    );
    await openAt('/id/register?id=reg-4');
    expect(await screen.findByText(/^Pendaftaran ini berakhir tanpa langganan/)).toBeInTheDocument();
    expect(
      screen.getByText('Alasan: Pembayaran tidak diselesaikan tepat waktu sehingga dihentikan.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Daftar lagi' })).toHaveAttribute('href', '/id/');
    expect(screen.getByRole('link', { name: 'Hubungi kami' })).toBeInTheDocument();
    expect(postMock).not.toHaveBeenCalled();
  });

  it('says when the signing status is unknown, with the provider’s reason and a way to contact us', async () => {
    rawMock.mockResolvedValue(
      answer({
        state: 'unknown',
        failureCode: 'status_unknown',
        failureMessage: 'The payment provider could not tell us whether your payment went through.',
      }),
    );
    await openAt('/register?id=reg-5');
    expect(await screen.findByText(/The status of your sign-up is unknown/)).toBeInTheDocument();
    expect(
      screen.getByText('Reason: The payment provider could not tell us whether your payment went through.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign up again' })).toBeNull();
  });

  it('says when the status could not be obtained', async () => {
    rawMock.mockRejectedValue(Object.assign(new Error('Not found'), { status: 404 }));
    await openAt('/register?id=missing');
    expect(await screen.findByText(/could not get the status of your sign-up/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeInTheDocument();
  });
});
