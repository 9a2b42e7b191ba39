import { fireEvent, screen, within } from '@testing-library/react';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import type { SubscriptionInfo } from '../../lib/subscription-api';
import SubscriptionExpiredDialog from './subscription-expired-dialog';

/** A subscription taken on the Indonesian pages, in rupiah. */
const rupiahTerms: PaymentTerms = {
  currencyCode: 'IDR',
  firstDayDebitAmount: 449000,
  amount: 449000,
  period: 30,
  nextDebitDay: '2031-02-01T00:00:00.000Z',
  methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: null },
  localChannels: [],
  sandbox: true,
  paymentsConfigured: true,
};

const expired: SubscriptionInfo = {
  ...activeSubscription,
  status: 'expired',
  expiredStatus: 1,
  validUntil: '2031-01-01T00:00:00.000Z',
  currencyCode: 'IDR',
  amount: 449000,
};

describe('the expired state’s renewal', () => {
  it('offers paying again at the subscription’s own price, even on the English pages', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', expired);
    fakeApi.on('get', '/api/v1/personnal/subscribe/renewal-terms', rupiahTerms);
    await renderAt('/dashboard/', <SubscriptionExpiredDialog open onClose={jest.fn()} />);
    expect(await screen.findByText('Today you pay IDR 449,000 for the next 30 days.')).toBeInTheDocument();
    expect(screen.getByText('Pay IDR 449,000')).toBeInTheDocument();
    expect(screen.queryByText(/\$29\.99/)).not.toBeInTheDocument();
    expect(await screen.findByText(/^Your subscription ended on .*2031/)).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/personnal/subscribe/renewal-terms')).toHaveLength(1);
    // The dialog's reads say nothing of a failure: the API client is told not to toast.
    expect(fakeApi.calls('get', '/api/v1/personnal/subscribe/renewal-terms')[0]?.options).toEqual({
      toastErrors: false,
    });
  });

  it('still offers paying again when the subscription cannot be read, and says it ended without a date', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', fakeApi.unreachable());
    fakeApi.on('get', '/api/v1/personnal/subscribe/renewal-terms', rupiahTerms);
    await renderAt('/dashboard/', <SubscriptionExpiredDialog open onClose={jest.fn()} />);
    expect(await screen.findByText('Pay IDR 449,000')).toBeInTheDocument();
    expect(fakeApi.called()).toContain('GET /api/v1/personnal/subscribe/info');
    expect(
      screen.getByText(
        'Your subscription has ended, so you cannot send new location requests. Your request history is kept.',
      ),
    ).toBeInTheDocument();
    expect(fakeApi.effects.toastNetworkError).not.toHaveBeenCalled();
  });

  it('shows a renewal that still waits for its payer, with its number and the time left, and lets them choose again', async () => {
    const payment = {
      channel: 'bni_va' as const,
      amount: 449000,
      currencyCode: 'IDR',
      merchantName: 'Kabari Indonesia',
      expiresAt: new Date(Date.now() + 20 * 3600_000).toISOString(),
      vaNumber: '9881234567890123',
    };
    const registerId = '5f3c1e2a-8d4b-4c6e-9a1f-2b3c4d5e6f70';
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', { ...expired, waitingPayment: { registerId, payment } });
    fakeApi.on('get', '/api/v1/personnal/subscribe/renewal-terms', rupiahTerms);
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', { state: 'querying', payment });
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', { ...rupiahTerms, methods: { ...rupiahTerms.methods } });
    await renderAt('/id/dashboard/', <SubscriptionExpiredDialog open onClose={jest.fn()} />);

    const notice = await screen.findByTestId('waiting-payment');
    expect(notice).toHaveTextContent('Ada pembayaran yang menunggu');
    expect(notice).toHaveTextContent(/lewat transfer bank BNI, bisa dibayar sampai/);
    fireEvent.click(within(notice).getByRole('button', { name: 'Tampilkan nomor pembayaran' }));
    expect(await screen.findByText('9881 2345 6789 0123', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/^\d+:\d\d:\d\d$/);
    expect(fakeApi.calls('post', '/api/v1/personnal/subscribe/renew')).toHaveLength(0);

    // Another way to pay: back to the choices, the waiting one still named above them.
    fireEvent.click(screen.getByRole('button', { name: 'Perpanjang langganan' }));
    expect(await screen.findByTestId('waiting-payment')).toBeInTheDocument();
  });

  it('cancels a waiting renewal from its waiting view: the choices again, the cancelled one gone', async () => {
    const payment = {
      channel: 'bri_va' as const,
      amount: 449000,
      currencyCode: 'IDR',
      merchantName: 'Kabari Indonesia',
      expiresAt: new Date(Date.now() + 20 * 3600_000).toISOString(),
      vaNumber: '9771234567890123',
    };
    const registerId = '5f3c1e2a-8d4b-4c6e-9a1f-2b3c4d5e6f71';
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', { ...expired, waitingPayment: { registerId, payment } });
    fakeApi.on('get', '/api/v1/personnal/subscribe/renewal-terms', rupiahTerms);
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', { state: 'querying', payment });
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', rupiahTerms);
    fakeApi.on('post', '/api/v1/personnal/subscribe/waiting-payment/cancel', { ...expired, waitingPayment: null });
    await renderAt('/id/dashboard/', <SubscriptionExpiredDialog open onClose={jest.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Tampilkan nomor pembayaran' }));
    expect(await screen.findByText('9771 2345 6789 0123', {}, { timeout: 15_000 })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Pilih cara bayar lain' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ya, hentikan pembayaran ini' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Pembayaran sebelumnya sudah dihentikan. Silakan pilih cara bayar lain.',
    );
    expect(screen.getByRole('heading', { name: 'Perpanjang langganan' })).toHaveFocus();
    expect(screen.queryByTestId('waiting-payment')).not.toBeInTheDocument();
    expect(screen.queryByText('9771 2345 6789 0123')).not.toBeInTheDocument();
    expect(await screen.findByText('Bayar Rp 449.000')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/personnal/subscribe/renew')).toHaveLength(0);
  });
});
