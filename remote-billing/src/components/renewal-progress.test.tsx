import { act, screen } from '@testing-library/react';
import { renderAt } from '../../../jest/render-with-i18n';
import { fakeApi } from '../../../jest/fake-api';
import { pollIntervalMs, type RegisterQueryResult } from '../lib/register-query';
import { RenewalProgress } from './renewal-progress';

const registerQuery = '/api/v1/personnal/registerQuery/{id}';

function settledAs(result: RegisterQueryResult) {
  fakeApi.on('get', registerQuery, result);
}

describe('RenewalProgress', () => {
  afterEach(() => jest.useRealTimers());

  it('says the subscription is active again once the renewal is created', async () => {
    settledAs({ state: 'created' });
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    expect(await screen.findByText('Your subscription is active again.')).toHaveAttribute('role', 'status');
    expect(onRenewed).toHaveBeenCalledTimes(1);
    expect(fakeApi.calls('get', registerQuery).map((call) => call.path)).toEqual([{ id: 'r1' }]);
  });

  it('says it is confirming while the payment is queried, and asks again until it is settled', async () => {
    // The poll waits pollIntervalMs between questions: the clock is moved instead of waiting for it.
    jest.useFakeTimers();
    const states: RegisterQueryResult[] = [{ state: 'querying' }, { state: 'querying' }, { state: 'created' }];
    fakeApi.on('get', registerQuery, () => states.shift() ?? { state: 'querying' });
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="r2" onRenewed={onRenewed} />);
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('status')).toHaveTextContent('Confirming your payment…');
    expect(fakeApi.calls('get', registerQuery)).toHaveLength(1);
    await act(() => jest.advanceTimersByTimeAsync(pollIntervalMs));
    expect(fakeApi.calls('get', registerQuery)).toHaveLength(2);
    expect(onRenewed).not.toHaveBeenCalled();
    await act(() => jest.advanceTimersByTimeAsync(pollIntervalMs));
    expect(screen.getByRole('status')).toHaveTextContent('Your subscription is active again.');
    expect(fakeApi.calls('get', registerQuery).map((call) => call.path)).toEqual([
      { id: 'r2' },
      { id: 'r2' },
      { id: 'r2' },
    ]);
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });

  it('shows the bank’s virtual account while a renewal by bank transfer waits for its payer', async () => {
    const waiting: RegisterQueryResult = {
      state: 'querying',
      payment: {
        channel: 'bni_va',
        amount: 449000,
        currencyCode: 'IDR',
        merchantName: 'Kabari Indonesia',
        expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
        vaNumber: '9881234567890123',
      },
    };
    settledAs(waiting);
    // The instance's processor for the rupiah price: Midtrans.
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', {
      currencyCode: 'IDR',
      firstDayDebitAmount: 4900,
      amount: 449000,
      period: 30,
      nextDebitDay: '2031-01-02T00:00:00.000Z',
      methods: { card: null, wallet: null, paypal: null, local: 'midtrans' },
      localChannels: ['qris', 'bni_va'],
      sandbox: false,
      paymentsConfigured: true,
    });
    const onRenewed = jest.fn();
    await renderAt('/id/dashboard/', <RenewalProgress registerId="r3" onRenewed={onRenewed} />);
    expect(await screen.findByRole('heading', { name: 'Bayar lewat transfer BNI' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Nomor Virtual Account' })).toHaveTextContent('9881 2345 6789 0123');
    expect(screen.getByRole('heading', { name: 'Lewat BNI Mobile Banking' })).toBeInTheDocument();
    expect(onRenewed).not.toHaveBeenCalled();
  });

  it('says why a payment did not go through, and the subscription stays expired', async () => {
    settledAs({ state: 'sign_failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.' });
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The payment did not go through: Your card was declined.',
    );
    expect(onRenewed).not.toHaveBeenCalled();
  });

  it('a second payment for a period renewed meanwhile: active, refunded, never called a failure (in Indonesian)', async () => {
    const refunded =
      'Langganan Anda sudah diperpanjang untuk periode ini, jadi langganan tetap aktif dan pembayaran kedua ini kami kembalikan secara penuh.';
    settledAs({ state: 'sign_failed', failureCode: 'duplicate_payment', failureMessage: refunded });
    const onRenewed = jest.fn();
    await renderAt('/id/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    const status = await screen.findByText('Langganan Anda sudah aktif.');
    expect(screen.getByRole('status')).toContainElement(status);
    expect(screen.getByRole('status')).toHaveTextContent(refunded);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });

  it('says the payment could not be confirmed when the renewal is not found, without asking again', async () => {
    fakeApi.on('get', registerQuery, fakeApi.fail(404, 'Not found'));
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="gone" onRenewed={onRenewed} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not confirm the payment. Check My subscription in a moment.',
    );
    expect(fakeApi.calls('get', registerQuery)).toHaveLength(1);
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
    expect(onRenewed).not.toHaveBeenCalled();
  });
});
