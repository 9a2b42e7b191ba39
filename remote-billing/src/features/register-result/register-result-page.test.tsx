import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter, useLocation } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import type { RegisterQueryResult } from '../../lib/register-query';
import RegisterResultPage from './register-result-page';

const answer = (result: RegisterQueryResult) => fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', result);
const user = {
  userCacheInfo: {
    id: 'u1',
    email: 'ana@example.com',
    displayName: 'Ana',
    phone: null,
    locale: 'id' as const,
    createdAt: '2026-11-01T10:00:00.000Z',
  },
};

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
    clearSession();
  });

  it('says plainly that there is no sign-up to show, with a way home in the same language', async () => {
    await renderAt('/id/register', <RegisterResultPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Pendaftaran Anda');
    expect(screen.getByRole('link')).toHaveAttribute('href', '/id/');
    expect(fakeApi.called()).toEqual([]);
  });

  it('polls while the payment is queried, then signs the new user in and opens the welcome dialog', async () => {
    const states: RegisterQueryResult[] = [
      { state: 'querying' },
      { state: 'created', authCode: 'code-1234567890abcdef' },
    ];
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', () => states.shift() ?? { state: 'querying' });
    fakeApi.on('post', '/api/v1/auth/loginByAuthCode', { user });
    await openAt('/id/register?id=reg-1');
    expect(screen.getByText('Pembayaran Anda sedang dikonfirmasi…')).toBeInTheDocument();
    await waitFor(
      () => expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/modules/SuccessModal'),
      {
        timeout: 10_000,
      },
    );
    expect(fakeApi.calls('get', '/api/v1/personnal/registerQuery/{id}')[0]?.path).toEqual({ id: 'reg-1' });
    expect(fakeApi.calls('post', '/api/v1/auth/loginByAuthCode').map((call) => call.body)).toEqual([
      { authCode: 'code-1234567890abcdef' },
    ]);
    expect(useUserStore.getState().user).toEqual(user);
  });

  it('shows the decline message when signing failed', async () => {
    answer({ state: 'sign_failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.' });
    await openAt('/register?id=reg-2');
    expect(await screen.findByText('The payment did not go through, so no account was created.')).toBeInTheDocument();
    expect(screen.getByText('Reason: Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again with another card' })).toBeInTheDocument();
  });

  it('says when the automatic login failed, and offers the login dialog', async () => {
    answer({ state: 'created', authCode: 'code-1234567890abcdef' });
    fakeApi.on('post', '/api/v1/auth/loginByAuthCode', fakeApi.fail(400, 'authCode is not valid'));
    await openAt('/register?id=reg-3');
    expect(await screen.findByText(/could not sign you in automatically/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(useUserStore.getState().user).toBeNull();
  });

  it('says in Indonesian that an abandoned payment ended the sign-up, with the reason and a way to start again', async () => {
    answer({
      state: 'unsubscribed',
      failureCode: 'payment_abandoned',
      failureMessage: 'Pembayaran tidak diselesaikan tepat waktu sehingga dihentikan.',
    });
    await openAt('/id/register?id=reg-4');
    expect(await screen.findByText(/^Pendaftaran ini berakhir tanpa langganan/)).toBeInTheDocument();
    expect(
      screen.getByText('Alasan: Pembayaran tidak diselesaikan tepat waktu sehingga dihentikan.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Daftar lagi' })).toHaveAttribute('href', '/id/');
    expect(screen.getByRole('link', { name: 'Hubungi kami' })).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/auth/loginByAuthCode')).toEqual([]);
  });

  it('says when the signing status is unknown, with the provider’s reason and a way to contact us', async () => {
    answer({
      state: 'unknown',
      failureCode: 'status_unknown',
      failureMessage: 'The payment provider could not tell us whether your payment went through.',
    });
    await openAt('/register?id=reg-5');
    expect(await screen.findByText(/The status of your sign-up is unknown/)).toBeInTheDocument();
    expect(
      screen.getByText('Reason: The payment provider could not tell us whether your payment went through.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign up again' })).toBeNull();
  });

  it('shows a waiting QRIS payment again to a visitor who comes back, then signs in once it is paid', async () => {
    const waiting: RegisterQueryResult = {
      state: 'querying',
      payment: {
        channel: 'qris',
        amount: 4900,
        currencyCode: 'IDR',
        merchantName: 'Kabari Indonesia',
        expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
        qrString: '00020101021226620014ID.CO.QRIS.WWW0215ID10200000000010303UMI5204481253033605802ID',
      },
    };
    const states: RegisterQueryResult[] = [waiting, waiting, { state: 'created', authCode: 'code-1234567890abcdef' }];
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', () => states.shift() ?? { state: 'querying' });
    // The instance's processor for the rupiah price: the sandbox, whose payments can be simulated.
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', {
      currencyCode: 'IDR',
      firstDayDebitAmount: 4900,
      amount: 449000,
      period: 30,
      nextDebitDay: '2031-01-02T00:00:00.000Z',
      methods: { card: null, wallet: null, paypal: null, local: 'sandbox' },
      localChannels: ['qris', 'bni_va'],
      sandbox: true,
      paymentsConfigured: true,
    });
    fakeApi.on('post', '/api/v1/auth/loginByAuthCode', { user });
    await openAt('/id/register?id=reg-6');
    expect(await screen.findByRole('heading', { name: 'Bayar dengan QRIS' })).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Kode QR untuk membayar Rp\s?4\.900 kepada Kabari Indonesia$/ }),
    ).toBeVisible();
    expect(
      await screen.findByRole('button', { name: 'Simulasikan pembayaran (sandbox: tidak ada uang yang berpindah)' }),
    ).toBeVisible();
    expect(screen.getByText(/^Anda boleh menutup halaman ini/)).toBeInTheDocument();
    await waitFor(
      () => expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/modules/SuccessModal'),
      { timeout: 15_000 },
    );
    expect(fakeApi.calls('post', '/api/v1/auth/loginByAuthCode').map((call) => call.body)).toEqual([
      { authCode: 'code-1234567890abcdef' },
    ]);
  });

  it('says an expired QRIS payment ended the sign-up, and offers to choose another way to pay', async () => {
    answer({
      state: 'sign_failed',
      failureCode: 'payment_expired',
      failureMessage: 'The time to pay ran out before the payment arrived.',
    });
    await openAt('/register?id=reg-7');
    expect(await screen.findByText('Reason: The time to pay ran out before the payment arrived.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose another way to pay' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again with another card' })).toBeNull();
  });

  it('says when the status could not be obtained', async () => {
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', fakeApi.fail(404, 'Not found'));
    await openAt('/register?id=missing');
    expect(await screen.findByText(/could not get the status of your sign-up/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeInTheDocument();
  });
});
