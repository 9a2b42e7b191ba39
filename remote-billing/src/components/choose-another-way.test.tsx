import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../jest/render-with-i18n';
import { fakeApi } from '../../../jest/fake-api';
import { activeSubscription } from '../lib/subscription-info.fixture';
import { ChooseAnotherWay } from './choose-another-way';

jest.setTimeout(30_000);

const cancelPath = '/api/v1/personnal/subscribe/waiting-payment/cancel';
const registerId = '6a2f0c1e-4b3d-4e5f-8a9b-0c1d2e3f4a5b';
const running = { ...activeSubscription, currencyCode: 'IDR', amount: 449000, renewsWhenPaid: true };

describe('Choose another way to pay', () => {
  afterEach(() => cleanup());

  it('asks first, by keyboard, saying the account number stops working; kept, nothing is cancelled (Indonesian)', async () => {
    const onCancelled = jest.fn();
    await renderAt(
      '/id/dashboard/',
      <ChooseAnotherWay registerId={registerId} channel="bca_va" onCancelled={onCancelled} />,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Pilih cara bayar lain' })).toHaveFocus();
    await user.keyboard('{Enter}');

    const question = screen.getByRole('group', {
      name: 'Nomor virtual account yang sekarang tidak akan bisa dipakai lagi, jadi jangan transfer ke nomor itu. Pilih cara bayar lain?',
    });
    expect(question.querySelector('p')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Ya, hentikan pembayaran ini' })).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pilih cara bayar lain' })).toHaveFocus();
    expect(fakeApi.calls('post', cancelPath)).toHaveLength(0);
    expect(onCancelled).not.toHaveBeenCalled();
  });

  it('cancels once confirmed and hands over the subscription as the server says it is', async () => {
    const after = { ...running, waitingPayment: null };
    fakeApi.on('post', cancelPath, after);
    const onCancelled = jest.fn();
    await renderAt(
      '/dashboard/',
      <ChooseAnotherWay registerId={registerId} channel="qris" onCancelled={onCancelled} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Choose another way to pay' }));
    expect(
      screen.getByText(
        'The current QR code will stop working, so this payment can no longer be made. Choose another way to pay?',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, stop this payment' }));
    await waitFor(() => expect(onCancelled).toHaveBeenCalledWith(after));
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(fakeApi.calls('post', cancelPath).map((call) => call.body)).toEqual([{ registerId }]);
    expect(fakeApi.calls('post', cancelPath)[0]?.options).toEqual({ toastErrors: false });
  });

  it('names the e-wallet, and says why it failed when Midtrans is out of reach; the payment is kept', async () => {
    const reason =
      'Midtrans tidak dapat dihubungi, jadi pembayaran belum dibatalkan dan masih bisa dibayar. Silakan coba lagi sebentar lagi.';
    fakeApi.on('post', cancelPath, fakeApi.fail(502, reason));
    const onCancelled = jest.fn();
    const onGone = jest.fn();
    await renderAt(
      '/id/dashboard/',
      <ChooseAnotherWay registerId={registerId} channel="gopay" onCancelled={onCancelled} onGone={onGone} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pilih cara bayar lain' }));
    expect(
      screen.getByText(
        'Pembayaran lewat GoPay yang sekarang tidak akan bisa diselesaikan lagi. Pilih cara bayar lain?',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ya, hentikan pembayaran ini' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Pembayaran belum bisa dihentikan: ${reason}`);
    expect(onCancelled).not.toHaveBeenCalled();
    expect(onGone).not.toHaveBeenCalled();
    // Still asking: it can be tried again.
    expect(screen.getByRole('button', { name: 'Ya, hentikan pembayaran ini' })).toBeEnabled();
  });

  it('a payment that no longer waits (paid or expired meanwhile): says so and has the caller read it again', async () => {
    const reason =
      'No payment of yours is waiting under this reference: it may have been paid, cancelled or expired already.';
    fakeApi.on('post', cancelPath, fakeApi.fail(404, reason));
    const onGone = jest.fn();
    await renderAt(
      '/dashboard/',
      <ChooseAnotherWay registerId={registerId} channel="bni_va" onCancelled={jest.fn()} onGone={onGone} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Choose another way to pay' }));
    await user.click(screen.getByRole('button', { name: 'Yes, stop this payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`The payment could not be stopped: ${reason}`);
    expect(onGone).toHaveBeenCalledTimes(1);
  });
});
