import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../jest/render-with-i18n';
import { fakeApi } from '../../../jest/fake-api';
import type { LocalPayment } from './local-payment';
import type { PaymentTerms } from './payment-terms';
import LocalPaymentView from './local-payment-view';

/** The rupiah price's terms: whether the sandbox or Midtrans takes the local payments. */
function localPaymentsBy(local: 'sandbox' | 'midtrans'): PaymentTerms {
  return {
    currencyCode: 'IDR',
    firstDayDebitAmount: 4900,
    amount: 449000,
    period: 30,
    nextDebitDay: '2031-01-02T00:00:00.000Z',
    methods: { card: null, wallet: null, paypal: null, local },
    localChannels: ['qris'],
    sandbox: local === 'sandbox',
    paymentsConfigured: true,
  };
}

const start = new Date('2026-12-05T10:00:00.000Z');
const inMinutes = (minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();

const qris: LocalPayment = {
  channel: 'qris',
  amount: 449000,
  currencyCode: 'IDR',
  merchantName: 'Kabari Indonesia',
  expiresAt: inMinutes(15),
  qrString: '00020101021226620014COM.GO-JEK.WWW01189360091434506469550210G4506469550303UMI51440014ID',
};

/** A phone: the e-wallet's app can be opened from the page. */
function onAPhone(phone: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: phone && query === '(pointer: coarse)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

describe('the local payment waiting view', () => {
  const matchMedia = window.matchMedia;
  beforeEach(() => {
    jest.useFakeTimers({ now: start, doNotFake: ['queueMicrotask'] });
    onAPhone(false);
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', localPaymentsBy('midtrans'));
  });
  afterEach(() => {
    jest.useRealTimers();
    window.matchMedia = matchMedia;
  });

  it('draws the QRIS code with the amount, the merchant and a countdown that moves (in Indonesian)', async () => {
    await renderAt('/id/register', <LocalPaymentView payment={qris} registerId="r1" locale="id" />);
    expect(screen.getByRole('heading', { name: 'Bayar dengan QRIS' })).toBeInTheDocument();
    const code = screen.getByRole('img', { name: /^Kode QR untuk membayar Rp\s?449\.000 kepada Kabari Indonesia$/ });
    // An SVG of the code's dark modules: a path with many squares, inside the quiet zone.
    expect(code.tagName.toLowerCase()).toBe('svg');
    const squares =
      code
        .querySelector('path')
        ?.getAttribute('d')
        ?.match(/M\d+ \d+h1v1h-1z/g) ?? [];
    expect(squares.length).toBeGreaterThan(200);
    expect(code.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
    expect(screen.getByText('Pindai kode QR ini dengan aplikasi bank atau e-wallet mana pun')).toBeInTheDocument();
    expect(screen.getByText('Kabari Indonesia')).toBeInTheDocument();
    expect(screen.getByText('Batas waktu pembayaran')).toBeInTheDocument();
    const timer = screen.getByRole('timer');
    expect(timer).toHaveTextContent('15:00');
    await act(() => jest.advanceTimersByTimeAsync(61_000));
    expect(timer).toHaveTextContent('13:59');
    expect(screen.getByRole('status')).toHaveTextContent('Menunggu pembayaran Anda.');
    // Midtrans' own code: no sandbox button.
    expect(screen.queryByRole('button', { name: /Simulasikan/ })).toBeNull();
  });

  it('says when the time to pay has run out, hides the code and offers another way to pay', async () => {
    const chooseAgain = jest.fn();
    await renderAt(
      '/register',
      <LocalPaymentView
        payment={{ ...qris, expiresAt: inMinutes(1) }}
        registerId="r1"
        locale="en"
        onChooseAgain={chooseAgain}
      />,
    );
    expect(screen.getByRole('img', { name: /^QR code to pay/ })).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('The time to pay has run out');
    expect(screen.getByRole('timer')).toHaveTextContent('0:00');
    expect(screen.queryByRole('img', { name: /^QR code/ })).toBeNull();
    jest.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Choose another way to pay' }));
    expect(chooseAgain).toHaveBeenCalledTimes(1);
  });

  it('shows a BCA virtual account number to copy, with the bank’s steps in Indonesian', async () => {
    jest.useRealTimers();
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const bca: LocalPayment = {
      ...qris,
      channel: 'bca_va',
      qrString: undefined,
      vaNumber: '12345678901234567',
      expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
    };
    await renderAt('/id/register', <LocalPaymentView payment={bca} registerId="r2" locale="id" />);
    expect(screen.getByRole('heading', { name: 'Bayar lewat transfer BCA' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Nomor Virtual Account' })).toHaveTextContent('1234 5678 9012 3456 7');
    expect(screen.getByRole('timer')).toHaveTextContent(/^2[34]:\d\d:\d\d$/);
    expect(screen.queryByRole('img')).toBeNull();
    const steps = screen.getByRole('heading', { name: 'Lewat BCA mobile' }).nextElementSibling as HTMLElement;
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual([
      'Buka BCA mobile, pilih m-BCA, lalu masukkan kode akses Anda.',
      'Pilih m-Transfer, lalu BCA Virtual Account.',
      'Masukkan nomor Virtual Account 12345678901234567, lalu ketuk Send.',
      expect.stringMatching(/^Pastikan jumlahnya Rp\s?449\.000 dan namanya Kabari Indonesia, lalu ketuk OK/),
    ]);
    expect(screen.getByText('Lewat ATM BCA')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Salin Nomor Virtual Account' }));
    expect(writeText).toHaveBeenCalledWith('12345678901234567');
    expect(await screen.findByText('Nomor Virtual Account disalin')).toBeInTheDocument();
  });

  it('shows Mandiri’s company code and bill key, each to copy, and its steps in English', async () => {
    jest.useRealTimers();
    const mandiri: LocalPayment = {
      ...qris,
      channel: 'mandiri_bill',
      qrString: undefined,
      billerCode: '70012',
      vaNumber: '990123456789',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    };
    await renderAt('/register', <LocalPaymentView payment={mandiri} registerId="r3" locale="en" />);
    expect(screen.getByRole('heading', { name: 'Pay by Mandiri transfer' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Company code (biller code)' })).toHaveTextContent('70012');
    expect(screen.getByRole('status', { name: 'Payment code (bill key)' })).toHaveTextContent('9901 2345 6789');
    expect(screen.getByRole('button', { name: 'Copy Company code (biller code)' })).toBeInTheDocument();
    expect(screen.getByText('Enter the company code 70012, then the payment code 990123456789.')).toBeInTheDocument();
  });

  it('opens GoPay through its deep link on a phone', async () => {
    onAPhone(true);
    const gopay: LocalPayment = {
      ...qris,
      channel: 'gopay',
      deeplinkUrl: 'gojek://gopay/merchanttransfer?tref=1',
    };
    await renderAt('/id/register', <LocalPaymentView payment={gopay} registerId="r4" locale="id" />);
    expect(screen.getByRole('link', { name: 'Buka GoPay' })).toHaveAttribute('href', gopay.deeplinkUrl);
    // The QR stays for a payer who would rather scan it from another phone.
    expect(screen.getByText('Pindai kode QR ini dengan aplikasi Gojek atau GoPay')).toBeInTheDocument();
  });

  it('on a computer shows GoPay’s QR code, not a link that opens nothing', async () => {
    const gopay: LocalPayment = { ...qris, channel: 'gopay', deeplinkUrl: 'gojek://gopay/merchanttransfer?tref=1' };
    await renderAt('/register', <LocalPaymentView payment={gopay} registerId="r5" locale="en" />);
    expect(screen.getByRole('img', { name: /^QR code to pay/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open GoPay' })).toBeNull();
  });

  it('on a computer without GoPay’s QR code (Midtrans’s image could not be read), keeps the link and says where it opens', async () => {
    const { qrString: _none, ...withoutQr } = qris;
    const gopay: LocalPayment = {
      ...withoutQr,
      channel: 'gopay',
      deeplinkUrl: 'gojek://gopay/merchanttransfer?tref=1',
    };
    await renderAt('/register', <LocalPaymentView payment={gopay} registerId="r6" locale="en" />);
    expect(screen.queryByRole('img', { name: /^QR code to pay/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open GoPay' })).toHaveAttribute('href', gopay.deeplinkUrl);
    expect(screen.getByText(/GoPay opens on a phone: open this page on your phone to pay/)).toBeInTheDocument();
  });

  it('in the sandbox, a clearly labelled button simulates the payment', async () => {
    jest.useRealTimers();
    const path = '/api/v1/personnal/sandboxPayments/{id}/pay';
    fakeApi.on('post', '/api/v1/personnal/getPaidAmount', localPaymentsBy('sandbox'));
    fakeApi.on('post', path, { state: 'querying' });
    const sandbox: LocalPayment = { ...qris, expiresAt: new Date(Date.now() + 900_000).toISOString() };
    await renderAt('/register', <LocalPaymentView payment={sandbox} registerId="reg-9" locale="en" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Simulate payment (sandbox: no money moves)' }));
    expect(await screen.findByText('Payment simulated. Waiting for it to be confirmed…')).toBeInTheDocument();
    expect(fakeApi.calls('post', path).map((call) => call.path)).toEqual([{ id: 'reg-9' }]);
    // Whether the sandbox takes local payments: the rupiah price's processor says.
    expect(fakeApi.calls('post', '/api/v1/personnal/getPaidAmount').map((call) => call.body)).toEqual([
      { locale: 'id' },
    ]);
  });
});
