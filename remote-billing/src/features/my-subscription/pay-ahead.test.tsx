import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDay, formatTime } from '@kabari/shared/i18n/format-time';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import type { SubscriptionInfo } from '../../lib/subscription-api';
import MySubscriptionDialog from './my-subscription-dialog';

jest.setTimeout(30_000);

const DAY = 24 * 60 * 60_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/**
 * A subscription paid with QRIS (the sandbox's), in rupiah: it renews only when its owner pays. Its period is the
 * 30 days to validUntil; as the server says, the next period is paid when that period has not begun.
 */
const paidWithQris = (validUntil: string, status: SubscriptionInfo['status'] = 'trial'): SubscriptionInfo => {
  const periodStart = new Date(new Date(validUntil).getTime() - 30 * DAY).toISOString();
  return {
    ...activeSubscription,
    status,
    validUntil,
    periodStart,
    nextPeriodPaid: new Date(periodStart).getTime() > Date.now(),
    nextDebitDay: null,
    renewsWhenPaid: true,
    amount: 449000,
    firstDayDebitAmount: 4900,
    currencyCode: 'IDR',
  };
};

/** renewal-terms for that subscription: the sandbox takes QRIS, e-wallets, banks and cards. */
const rupiahTerms: PaymentTerms = {
  currencyCode: 'IDR',
  firstDayDebitAmount: 4900,
  amount: 449000,
  period: 30,
  nextDebitDay: inDays(1),
  methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: 'sandbox' },
  localChannels: ['qris', 'gopay', 'shopeepay', 'bca_va', 'bni_va'],
  sandbox: true,
  paymentsConfigured: true,
};

const renewPath = '/api/v1/personnal/subscribe/renew';

/** A QRIS payment of the next period, as registerQuery and subscribe/info show it while it waits. */
const qrisPayment = () => ({
  channel: 'qris' as const,
  amount: 449000,
  currencyCode: 'IDR',
  merchantName: 'Kabari Indonesia',
  expiresAt: inDays(0.01),
  qrString:
    '00020101021226610016ID.CO.SANDBOX.WWW0118936000000000000000215ID20240000000010303UMI51440014ID.CO.QRIS.WWW0215ID10200000000000303UMI5204481653033605802ID5914Kabari Sandbox6007Jakarta63044D2F',
});
const infoPath = '/api/v1/personnal/subscribe/info';

async function open(url: string, info: SubscriptionInfo | (() => SubscriptionInfo)) {
  fakeApi.on('get', infoPath, info);
  fakeApi.on('get', '/api/v1/personnal/payments', { items: [] });
  fakeApi.on('get', '/api/v1/personnal/sessions', { items: [] });
  fakeApi.on('get', '/api/v1/personnal/subscribe/renewal-terms', rupiahTerms);
  fakeApi.on('post', '/api/v1/personnal/getPaidAmount', rupiahTerms);
  await act(async () => {
    await renderAt(url, <MySubscriptionDialog open onClose={() => undefined} />);
  });
}

/**
 * The payment dialog over My subscription, found by its title: under jest antd labels every modal by the same id
 * (its useId stands in as "test-id"), so both dialogs would take the first one's name. Its code loads lazily, and
 * on first use is compiled for the test, hence the longer wait.
 */
async function payAheadDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' }, { timeout: 15_000 });
  return heading.closest<HTMLElement>('[role="dialog"]')!;
}

describe('My subscription: a subscription that renews when paid', () => {
  afterEach(() => cleanup());

  it('says it renews when paid, offers paying for the next period near its end, and says the next period is paid', async () => {
    const end = inDays(1);
    const later = new Date(new Date(end).getTime() + 30 * DAY).toISOString();
    let current = paidWithQris(end);
    await open('/id/dashboard/modules/MySubscription', () => current);

    expect(await screen.findByTestId('subscription-renewal')).toHaveTextContent(
      `Diperpanjang saat Anda membayar: sudah dibayar sampai ${formatDay(end, 'id')}`,
    );
    expect(screen.queryByText('Tagihan berikutnya')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Bayar periode berikutnya' }));

    const dialog = await payAheadDialog('Bayar periode berikutnya');
    const methods = within(dialog).getByRole('group', { name: 'Metode pembayaran' });
    // QRIS first, then e-wallets and banks; no card: the server takes only these before the period ends.
    expect(
      within(methods)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['QRIS', 'E-wallet: GoPay, ShopeePay', 'Virtual Account bank: BCA, BNI']);
    expect(within(dialog).getByText(new RegExp(`mulai ${formatDay(end, 'id')} saat periode`))).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Layar berikutnya menunjukkan cara membayar. Periode berikutnya langsung terbayar begitu pembayaran diterima.',
      ),
    ).toBeInTheDocument();

    fakeApi.on('post', renewPath, { registerId: '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a10' });
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', () => {
      current = { ...paidWithQris(later, 'active') };
      return { state: 'created' };
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /ketentuan langganan/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }));

    expect(await within(dialog).findByText('Periode berikutnya sudah dibayar.')).toHaveAttribute('role', 'status');
    expect(fakeApi.calls('post', renewPath).map((call) => call.body)).toEqual([{ method: 'local', channel: 'qris' }]);
    // subscribe/info read again: the period now runs to the paid one's end, and the page says it is paid.
    expect(await screen.findByTestId('next-period-paid')).toHaveTextContent(
      `Periode berikutnya sudah dibayar: langganan Anda berlaku sampai ${formatDay(later, 'id')}.`,
    );
    expect(screen.queryByRole('button', { name: 'Bayar periode berikutnya' })).not.toBeInTheDocument();
  });

  it('shows the QR code in the dialog while the payment waits, and again when reopened', async () => {
    let current = paidWithQris(inDays(3), 'active');
    await open('/id/dashboard/modules/MySubscription?renew=1', () => current);
    const dialog = await payAheadDialog('Bayar periode berikutnya');
    const registerId = '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a11';
    const payment = qrisPayment();
    fakeApi.on('post', renewPath, () => {
      // From now on subscribe/info tells of the payment that waits.
      current = { ...current, waitingPayment: { registerId, payment } };
      return { registerId, payment };
    });
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', { state: 'querying', payment });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /ketentuan langganan/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }));
    expect(await within(dialog).findByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeInTheDocument();
    // No way back to the choices while it waits (the server would refuse a second payment): cancelling it is.
    expect(within(dialog).queryByRole('button', { name: 'Kembali ke pilihan pembayaran' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Pilih cara bayar lain' })).toBeInTheDocument();

    // Closed and opened again while it waits: the same payment, not a second one (the server would refuse it).
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tutup' }));
    const notice = await screen.findByTestId('waiting-payment');
    expect(screen.queryByRole('button', { name: 'Bayar periode berikutnya' })).not.toBeInTheDocument();
    fireEvent.click(within(notice).getByRole('button', { name: 'Tampilkan kode QR' }));
    const reopened = await payAheadDialog('Bayar periode berikutnya');
    expect(await within(reopened).findByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeInTheDocument();
    expect(fakeApi.calls('post', renewPath)).toHaveLength(1);
  });

  it('once a payment has ended unpaid, says why and leads back to the payment choices', async () => {
    await open('/id/dashboard/modules/MySubscription?renew=1', paidWithQris(inDays(3), 'active'));
    const dialog = await payAheadDialog('Bayar periode berikutnya');
    const registerId = '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a19';
    fakeApi.on('post', renewPath, { registerId, payment: qrisPayment() });
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', {
      state: 'sign_failed',
      failureCode: 'payment_expired',
      failureMessage: 'Waktu pembayaran sudah habis.',
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /ketentuan langganan/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Waktu pembayaran sudah habis.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Kembali ke pilihan pembayaran' }));
    expect(await within(dialog).findByRole('button', { name: /^Bayar .+ dengan QRIS$/ })).toBeInTheDocument();
  });

  it('shows a payment that still waits after the page is opened again, and its code with the time left', async () => {
    const waiting = { registerId: '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a12', payment: qrisPayment() };
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', { state: 'querying', payment: waiting.payment });
    await open('/id/dashboard/modules/MySubscription', {
      ...paidWithQris(inDays(3), 'active'),
      waitingPayment: waiting,
    });

    const notice = await screen.findByTestId('waiting-payment');
    expect(notice).toHaveTextContent('Ada pembayaran yang menunggu');
    expect(notice).toHaveTextContent(
      `Rp 449.000 dengan QRIS, bisa dibayar sampai ${formatTime(waiting.payment.expiresAt, 'id')}.`.replace(/\s/g, ' '),
    );
    // A second payment would be refused while this one waits: no button to start one.
    expect(screen.queryByRole('button', { name: 'Bayar periode berikutnya' })).not.toBeInTheDocument();
    fireEvent.click(within(notice).getByRole('button', { name: 'Tampilkan kode QR' }));

    const dialog = await payAheadDialog('Bayar periode berikutnya');
    expect(await within(dialog).findByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('timer')).toHaveTextContent(/^\d+:\d\d$/);
    expect(fakeApi.calls('post', renewPath)).toHaveLength(0);
  });

  it('a waiting payment can be cancelled from its notice, after which the choices open again', async () => {
    const registerId = '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a15';
    const waiting = {
      registerId,
      payment: { ...qrisPayment(), channel: 'bca_va' as const, qrString: undefined, vaNumber: '12345678901234' },
    };
    let current: SubscriptionInfo = { ...paidWithQris(inDays(3), 'active'), waitingPayment: waiting };
    await open('/id/dashboard/modules/MySubscription', () => current);
    const notice = await screen.findByTestId('waiting-payment');
    fakeApi.on('post', '/api/v1/personnal/subscribe/waiting-payment/cancel', () => {
      current = { ...current, waitingPayment: null };
      return current;
    });
    fireEvent.click(within(notice).getByRole('button', { name: 'Pilih cara bayar lain' }));
    expect(
      within(notice).getByText(
        'Nomor virtual account yang sekarang tidak akan bisa dipakai lagi, jadi jangan transfer ke nomor itu. Pilih cara bayar lain?',
      ),
    ).toBeInTheDocument();
    fireEvent.click(within(notice).getByRole('button', { name: 'Ya, hentikan pembayaran ini' }));

    const dialog = await payAheadDialog('Bayar periode berikutnya');
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Pembayaran sebelumnya sudah dihentikan. Silakan pilih cara bayar lain.',
    );
    expect(within(dialog).getByRole('radio', { name: 'QRIS' })).toBeChecked();
    expect(
      fakeApi.calls('post', '/api/v1/personnal/subscribe/waiting-payment/cancel').map((call) => call.body),
    ).toEqual([{ registerId }]);
    await waitFor(() => expect(screen.queryByTestId('waiting-payment')).not.toBeInTheDocument());
    expect(fakeApi.calls('post', renewPath)).toHaveLength(0);
  });

  it('the waiting view cancels its payment too; one paid meanwhile is said to be paid (English)', async () => {
    const registerId = '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a16';
    const payment = { ...qrisPayment(), channel: 'gopay' as const };
    const end = inDays(3);
    let current: SubscriptionInfo = { ...paidWithQris(end, 'active'), waitingPayment: { registerId, payment } };
    let query: { state: 'querying'; payment: typeof payment } | { state: 'created' } = { state: 'querying', payment };
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', () => query);
    await open('/dashboard/modules/MySubscription', () => current);
    fireEvent.click(await screen.findByRole('button', { name: 'Show how to pay' }));
    const dialog = await payAheadDialog('Pay for the next period');
    const later = new Date(new Date(end).getTime() + 30 * DAY).toISOString();
    fakeApi.on('post', '/api/v1/personnal/subscribe/waiting-payment/cancel', () => {
      // Paid at the gateway just before: the server settled it, and the next period is paid.
      current = { ...paidWithQris(later, 'active'), waitingPayment: null };
      query = { state: 'created' };
      return current;
    });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Choose another way to pay' }));
    expect(
      within(dialog).getByText(
        'This GoPay payment will stop working and can no longer be completed. Choose another way to pay?',
      ),
    ).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop this payment' }));
    expect(await within(dialog).findByText('Your next period is paid.', {}, { timeout: 5_000 })).toHaveAttribute(
      'role',
      'status',
    );
    expect(within(dialog).queryByRole('radio', { name: 'QRIS' })).not.toBeInTheDocument();
    expect(await screen.findByTestId('next-period-paid')).toBeInTheDocument();
  });

  it('the reminder’s link shows the payment that waits instead of the choices; a bank’s says so (English)', async () => {
    const waiting = {
      registerId: '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a13',
      payment: { ...qrisPayment(), channel: 'bca_va' as const, qrString: undefined, vaNumber: '12345678901234' },
    };
    fakeApi.on('get', '/api/v1/personnal/registerQuery/{id}', { state: 'querying', payment: waiting.payment });
    await open('/dashboard/modules/MySubscription?renew=1', {
      ...paidWithQris(inDays(3), 'active'),
      waitingPayment: waiting,
    });
    const dialog = await payAheadDialog('Pay for the next period');
    expect(await within(dialog).findByText('1234 5678 9012 34')).toBeInTheDocument();
    expect(within(dialog).queryByRole('radio', { name: 'QRIS' })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    const notice = await screen.findByTestId('waiting-payment');
    expect(notice).toHaveTextContent('A payment is waiting');
    expect(within(notice).getByRole('button', { name: 'Show the number to pay' })).toBeInTheDocument();
    expect(fakeApi.calls('post', renewPath)).toHaveLength(0);
  });

  it('says nothing of a waiting payment once it has expired', async () => {
    const waiting = {
      registerId: '7b1a4f4e-0d6a-4a53-9d55-3b0c3f9d2a14',
      payment: { ...qrisPayment(), expiresAt: inDays(-0.001) },
    };
    await open('/dashboard/modules/MySubscription', { ...paidWithQris(inDays(3), 'active'), waitingPayment: waiting });
    expect(await screen.findByRole('button', { name: 'Pay for the next period' })).toBeInTheDocument();
    expect(screen.queryByTestId('waiting-payment')).not.toBeInTheDocument();
  });

  it('the reminder’s link opens the payment choices at once (English)', async () => {
    await open('/dashboard/modules/MySubscription?renew=1', paidWithQris(inDays(6), 'active'));
    const dialog = await payAheadDialog('Pay for the next period');
    expect(within(dialog).getByRole('radio', { name: 'QRIS' })).toBeChecked();
    expect(within(dialog).queryByRole('radio', { name: 'Card' })).not.toBeInTheDocument();
  });

  it('the reminder’s link says when paying becomes possible when it is too early (Indonesian and English)', async () => {
    const end = inDays(20);
    const from = new Date(new Date(end).getTime() - 7 * DAY).toISOString();
    await open('/id/dashboard/modules/MySubscription?renew=1', paidWithQris(end, 'active'));
    expect(
      await screen.findByText(
        `Periode berikutnya belum bisa dibayar sekarang. Anda bisa membayar mulai ${formatTime(from, 'id')}, 7 hari sebelum langganan Anda berakhir pada ${formatDay(end, 'id')}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Bayar periode berikutnya', { selector: '.ant-modal-title' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bayar periode berikutnya' })).not.toBeInTheDocument();
    cleanup();

    await open('/dashboard/modules/MySubscription?renew=1', paidWithQris(end, 'active'));
    expect(
      await screen.findByText(
        `It is too early to pay for the next period. You can pay from ${formatTime(from, 'en')}, 7 days before your subscription ends on ${formatDay(end, 'en')}.`,
      ),
    ).toBeInTheDocument();
    expect(fakeApi.calls('post', renewPath)).toHaveLength(0);
  });

  it('the reminder’s link says the next period is already paid', async () => {
    // The period running to validUntil starts after today: it was paid ahead.
    const end = inDays(35);
    await open('/id/dashboard/modules/MySubscription?renew=1', paidWithQris(end, 'active'));
    expect(
      await screen.findByText(
        `Periode berikutnya sudah dibayar: langganan Anda berlaku sampai ${formatDay(end, 'id')}. Tidak ada yang perlu dibayar sekarang.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Bayar periode berikutnya', { selector: '.ant-modal-title' })).not.toBeInTheDocument();
  });

  it('says the server’s reason when it refuses the payment (a payment already waiting)', async () => {
    await open('/id/dashboard/modules/MySubscription?renew=1', paidWithQris(inDays(2), 'active'));
    const dialog = await payAheadDialog('Bayar periode berikutnya');
    const waiting =
      'Pembayaran untuk periode berikutnya sudah menunggu. Silakan selesaikan di aplikasi pembayaran Anda, atau tunggu sampai kedaluwarsa untuk memulai yang baru.';
    fakeApi.on('post', renewPath, fakeApi.fail(409, waiting));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /ketentuan langganan/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(waiting);
  });
});

describe('My subscription: a card subscription', () => {
  afterEach(() => cleanup());

  it('keeps its automatic renewal wording, offers no payment, and the reminder’s link says nothing is due', async () => {
    const end = inDays(3);
    await open('/dashboard/modules/MySubscription?renew=1', {
      ...activeSubscription,
      validUntil: end,
      nextDebitDay: end,
      renewsWhenPaid: false,
    });
    expect(
      await screen.findByText(
        `Your subscription renews automatically on ${formatDay(end, 'en')}: there is nothing to pay now.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(`$29.99 on ${formatDay(end, 'en')}`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay for the next period' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('subscription-renewal')).not.toBeInTheDocument();
  });
});
