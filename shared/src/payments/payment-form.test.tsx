import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../api/api-error';
import { renderAt } from '../../../jest/render-with-i18n';
import { PaymentForm, type PaymentHandlers } from './payment-form';
import type { PaymentTerms } from './payment-terms';

// What getPaidAmount answers in a deployment with no payment provider and no PAYMENTS_SANDBOX.
const notConfigured: PaymentTerms = {
  currencyCode: 'USD',
  firstDayDebitAmount: 0.99,
  amount: 29.99,
  period: 30,
  nextDebitDay: '2031-01-02T00:00:00.000Z',
  methods: { card: null, wallet: null, paypal: null, local: null },
  localChannels: [],
  sandbox: false,
  paymentsConfigured: false,
};

describe('the payment form where payments are not configured', () => {
  it.each([
    ['/', 'en', 'Payments are not available here yet', /No card details are asked for/],
    ['/id/', 'id', 'Pembayaran belum tersedia di sini', /Tidak ada data kartu yang diminta/],
  ] as const)('says so and asks for no card (%s)', async (url, locale, title, text) => {
    const handlers: PaymentHandlers = { sandbox: jest.fn(), stripe: jest.fn() };
    const { container } = await renderAt(
      url,
      <PaymentForm name="off" terms={notConfigured} locale={locale} handlers={handlers} onPaid={jest.fn()} />,
    );
    expect(screen.getByText(title)).toBeVisible();
    expect(screen.getByText(text)).toBeVisible();
    // Nothing that could carry a card number, and nothing to press.
    expect(container.querySelectorAll('input')).toHaveLength(0);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(handlers.sandbox).not.toHaveBeenCalled();
  });
});

describe('the payment form when a payment fails', () => {
  const sandboxTerms: PaymentTerms = {
    ...notConfigured,
    methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: null },
    localChannels: [],
    sandbox: true,
    paymentsConfigured: true,
  };

  /** Pays with the sandbox wallet, the handler failing with `error`; resolves with the alert the form shows. */
  async function failWith(
    url: string,
    kind: 'signUp' | 'renewal',
    error: Error,
    names: { wallet: RegExp; pay: RegExp },
  ) {
    const handlers: PaymentHandlers = { sandbox: jest.fn().mockRejectedValue(error), stripe: jest.fn() };
    await renderAt(
      url,
      <PaymentForm
        name="failing"
        terms={sandboxTerms}
        kind={kind}
        locale={url.startsWith('/id') ? 'id' : 'en'}
        handlers={handlers}
        onPaid={jest.fn()}
      />,
    );
    await userEvent.click(screen.getByRole('radio', { name: names.wallet }));
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: names.pay }));
    return screen.findByRole('alert');
  }

  it('says in the page’s language that no answer came, and that paying again does not charge twice', async () => {
    const id = { wallet: /Dompet digital sandbox/, pay: /^Bayar/ };
    const alert = await failWith('/id/', 'signUp', new ApiError('Network Error'), id);
    expect(alert).toHaveTextContent('Kabari tidak menjawab, jadi belum diketahui apakah pembayaran berhasil.');
    expect(alert).toHaveTextContent('Anda tidak akan ditagih dua kali.');
    expect(alert).not.toHaveTextContent('Network Error');
  });

  it('says for a renewal that a second payment is refunded, and shows the server’s own sentence as it is', async () => {
    const en = { wallet: /Sandbox wallet/, pay: /^Pay/ };
    const renewal = await failWith('/', 'renewal', new ApiError('timeout of 20000ms exceeded'), en);
    expect(renewal).toHaveTextContent('if the first payment went through, the second is refunded in full.');
    cleanup();
    const refused = await failWith('/', 'signUp', new ApiError('This payment method is not available here.', 400), en);
    expect(refused).toHaveTextContent('This payment method is not available here.');
  });
});

describe('the payment form for a price in rupiah', () => {
  const rupiahTerms: PaymentTerms = {
    currencyCode: 'IDR',
    firstDayDebitAmount: 4900,
    amount: 449000,
    period: 30,
    nextDebitDay: '2031-01-02T00:00:00.000Z',
    methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: 'sandbox' },
    localChannels: ['qris', 'gopay', 'shopeepay', 'bca_va', 'bni_va', 'bri_va', 'mandiri_bill'],
    sandbox: true,
    paymentsConfigured: true,
  };

  async function renderRupiah(url: string, handlers: PaymentHandlers, onPaid = jest.fn()) {
    await renderAt(
      url,
      <PaymentForm
        name="rupiah"
        terms={rupiahTerms}
        locale={url.startsWith('/id') ? 'id' : 'en'}
        handlers={handlers}
        onPaid={onPaid}
      />,
    );
    return screen.getByRole('group', { name: url.startsWith('/id') ? 'Metode pembayaran' : 'Payment method' });
  }

  it('offers QRIS first, then e-wallets and bank virtual accounts, then the card, wallet and PayPal', async () => {
    const methods = await renderRupiah('/id/', { sandbox: jest.fn(), stripe: jest.fn(), local: jest.fn() });
    expect(
      within(methods)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual([
      'QRIS',
      'E-wallet: GoPay, ShopeePay',
      'Virtual Account bank: BCA, BNI, BRI, Mandiri',
      'Kartu',
      'Dompet digital sandbox',
      'PayPal sandbox',
    ]);
    expect(screen.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    expect(screen.getByText(/^Satu kode untuk semua aplikasi bank dan e-wallet: OVO, DANA/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Bayar Rp\s?4\.900 dengan QRIS$/ })).toBeInTheDocument();
    // No card field while a local method is chosen.
    expect(screen.queryByLabelText('Nomor kartu')).toBeNull();
  });

  it('says OVO and DANA pay through QRIS, and pays a bank transfer chosen by keyboard', async () => {
    const local = jest.fn().mockResolvedValue('reg-bri');
    const onPaid = jest.fn();
    await renderRupiah('/', { sandbox: jest.fn(), stripe: jest.fn(), local }, onPaid);
    await userEvent.click(screen.getByRole('radio', { name: 'QRIS' }));
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'E-wallet: GoPay, ShopeePay' })).toBeChecked();
    const wallets = screen.getByRole('group', { name: 'Which e-wallet?' });
    expect(within(wallets).getByRole('radio', { name: 'GoPay' })).toBeChecked();
    expect(
      within(wallets).getByText('Paying with OVO, DANA or a bank app? Choose QRIS: they all scan it.'),
    ).toBeVisible();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Bank virtual account: BCA, BNI, BRI, Mandiri' })).toBeChecked();
    const banks = screen.getByRole('group', { name: 'Which bank?' });
    await userEvent.click(within(banks).getByRole('radio', { name: 'BCA' }));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(within(banks).getByRole('radio', { name: 'BRI' })).toBeChecked();
    // The terms first: nothing is asked of the gateway without them.
    await userEvent.click(screen.getByRole('button', { name: /^Pay IDR\s?4,900 by BRI transfer$/ }));
    expect(await screen.findByText('Please accept the terms to continue')).toBeInTheDocument();
    expect(local).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: /^Pay IDR\s?4,900 by BRI transfer$/ }));
    expect(local).toHaveBeenCalledWith('bri_va');
    expect(onPaid).toHaveBeenCalledWith('reg-bri');
  });

  it('says a local method is not charged again by itself, and the card that it renews, for a sign-up and a renewal', async () => {
    const summary = () => screen.getByRole('region', { name: 'What you pay' });
    const methods = await renderRupiah('/', { sandbox: jest.fn(), stripe: jest.fn(), local: jest.fn() });
    expect(within(summary()).getByText(/^Today you pay (Rp|IDR)\s?4,900 for your first day\.$/)).toBeInTheDocument();
    expect(
      within(summary()).getByText(
        /^After that, nothing is charged by itself: to keep your subscription, you pay (Rp|IDR)\s?449,000 for each further 30 days, and we remind you before your paid time ends\.$/,
      ),
    ).toBeInTheDocument();
    expect(within(summary()).queryByText(/is charged every/)).toBeNull();
    await userEvent.click(within(methods).getByRole('radio', { name: 'Card' }));
    expect(
      within(summary()).getByText(/^From .+, (Rp|IDR)\s?449,000 is charged every 30 days until you cancel\.$/),
    ).toBeInTheDocument();
    expect(within(summary()).queryByText(/nothing is charged by itself/)).toBeNull();
  });

  it('says so in Indonesian when an expired subscription is paid again with QRIS', async () => {
    await renderAt(
      '/id/',
      <PaymentForm
        name="again"
        terms={rupiahTerms}
        locale="id"
        kind="renewal"
        handlers={{ sandbox: jest.fn(), stripe: jest.fn(), local: jest.fn() }}
        onPaid={jest.fn()}
      />,
    );
    const summary = screen.getByRole('region', { name: 'Yang Anda bayar' });
    expect(
      within(summary).getByText(/^Hari ini Anda membayar Rp\s?449\.000 untuk 30 hari ke depan\.$/),
    ).toBeInTheDocument();
    expect(
      within(summary).getByText(
        /^Setelah itu, tidak ada tagihan otomatis: untuk melanjutkan langganan, Anda membayar Rp\s?449\.000 untuk setiap 30 hari berikutnya/,
      ),
    ).toBeInTheDocument();
    expect(within(summary).queryByText(/ditagih .+ setiap/)).toBeNull();
  });

  it('offers no local method where the caller cannot take one, nor for a price in dollars', async () => {
    const methods = await renderRupiah('/', { sandbox: jest.fn(), stripe: jest.fn() });
    expect(within(methods).queryByRole('radio', { name: 'QRIS' })).toBeNull();
    cleanup();
    const dollars: PaymentTerms = {
      ...rupiahTerms,
      currencyCode: 'USD',
      methods: { ...rupiahTerms.methods, local: null },
      localChannels: [],
    };
    await renderAt(
      '/',
      <PaymentForm
        name="dollars"
        terms={dollars}
        locale="en"
        handlers={{ sandbox: jest.fn(), stripe: jest.fn(), local: jest.fn() }}
        onPaid={jest.fn()}
      />,
    );
    expect(screen.getByRole('radio', { name: 'Card' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: 'QRIS' })).toBeNull();
  });
});

describe('the sandbox card form’s messages', () => {
  const cardTerms: PaymentTerms = {
    ...notConfigured,
    methods: { card: 'sandbox', wallet: null, paypal: null, local: null },
    localChannels: [],
    sandbox: true,
    paymentsConfigured: true,
  };

  it('ties each message to its field, takes the focus to the first wrong one, and drops a message once it is right', async () => {
    const handlers: PaymentHandlers = { sandbox: jest.fn().mockResolvedValue('reg-card'), stripe: jest.fn() };
    const onPaid = jest.fn();
    await renderAt(
      '/id/',
      <PaymentForm name="card" terms={cardTerms} locale="id" handlers={handlers} onPaid={onPaid} />,
    );
    const first = screen.getByLabelText('Nama depan di kartu');
    const last = screen.getByLabelText('Nama belakang di kartu');
    const number = screen.getByLabelText('Nomor kartu');
    const expiry = screen.getByLabelText('Masa berlaku (BB/TT)');
    const cvv = screen.getByLabelText('CVV');
    const consent = screen.getByRole('checkbox', { name: /ketentuan langganan/ });
    expect(cvv).toHaveAccessibleDescription('3 atau 4 angka di bagian belakang kartu');
    // Nothing is said while the first digits are typed.
    await userEvent.type(number, '4242');
    expect(number).toHaveValue('4242');
    expect(number).not.toBeInvalid();
    expect(screen.queryByText('Masukkan nomor kartu yang valid')).toBeNull();

    await userEvent.type(first, 'Ana');
    await userEvent.click(screen.getByRole('button', { name: /^Bayar/ }));
    expect(last).toHaveFocus();
    expect(first).not.toBeInvalid();
    expect(last).toBeInvalid();
    expect(last).toHaveAccessibleDescription('Masukkan nama belakang yang tertera di kartu');
    expect(number).toHaveAccessibleDescription('Masukkan nomor kartu yang valid');
    expect(expiry).toHaveAccessibleDescription('Masukkan masa berlaku yang valid (BB/TT) dan belum lewat');
    expect(cvv).toHaveAccessibleDescription('Masukkan CVV 3 atau 4 angka 3 atau 4 angka di bagian belakang kartu');
    expect(consent).toBeInvalid();
    expect(consent).toHaveAccessibleDescription('Setujui ketentuannya untuk melanjutkan');
    expect(handlers.sandbox).not.toHaveBeenCalled();

    // Each message goes as soon as its field is right; the number is kept in fours, the expiry as BB/TT.
    await userEvent.type(last, 'Putri');
    expect(last).not.toBeInvalid();
    expect(screen.queryByText('Masukkan nama belakang yang tertera di kartu')).toBeNull();
    await userEvent.type(number, '424242424242');
    expect(number).toHaveValue('4242 4242 4242 4242');
    expect(number).not.toBeInvalid();
    await userEvent.type(expiry, '1230');
    expect(expiry).toHaveValue('12/30');
    await userEvent.type(cvv, '12a3');
    expect(cvv).toHaveValue('123');
    expect(cvv).toHaveAccessibleDescription('3 atau 4 angka di bagian belakang kartu');
    // The terms by keyboard: Space ticks the box, and its message goes.
    consent.focus();
    await userEvent.keyboard(' ');
    expect(consent).toBeChecked();
    expect(consent).not.toBeInvalid();
    await userEvent.click(screen.getByRole('button', { name: /^Bayar/ }));
    expect(handlers.sandbox).toHaveBeenCalledWith({
      method: 'card',
      card: {
        name: 'Ana',
        surname: 'Putri',
        number: '4242424242424242',
        expiryMonth: 12,
        expiryYear: 2030,
        cvv: '123',
      },
    });
    expect(onPaid).toHaveBeenCalledWith('reg-card');
  });

  it('says it is paying, and sends one payment however often Pay is pressed meanwhile', async () => {
    let answer: (registerId: string) => void = () => undefined;
    const sandbox = jest.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const onPaid = jest.fn();
    const walletTerms: PaymentTerms = {
      ...cardTerms,
      methods: { ...cardTerms.methods, card: null, wallet: 'sandbox' },
    };
    await renderAt(
      '/',
      <PaymentForm
        name="busy"
        terms={walletTerms}
        locale="en"
        handlers={{ sandbox, stripe: jest.fn() }}
        onPaid={onPaid}
      />,
    );
    await userEvent.click(screen.getByRole('checkbox', { name: /subscription terms/ }));
    await userEvent.click(screen.getByRole('button', { name: /^Pay/ }));
    const busy = screen.getByRole('button', { name: 'Paying…' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(busy);
    await userEvent.keyboard('{Enter}');
    expect(sandbox).toHaveBeenCalledTimes(1);
    await act(async () => answer('reg-wallet'));
    expect(onPaid).toHaveBeenCalledWith('reg-wallet');
    expect(screen.getByRole('button', { name: /^Pay/ })).not.toHaveAttribute('aria-disabled');
  });
});
