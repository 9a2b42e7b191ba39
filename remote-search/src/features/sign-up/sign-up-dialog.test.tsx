import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encryptPassword } from '@kabari/shared/account/password-encryption';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { MemoryRouter, useLocation } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { displayNameProblem } from '@kabari/rules/display-name';
import type * as DisplayNameRule from '@kabari/rules/display-name';
import { fakeApi } from '../../../../jest/fake-api';
import SignUpDialog from './sign-up-dialog';

jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (password: string) => `encrypted(${password})`),
  PasswordEncryptionError: class extends Error {},
}));

// The server's rule for a name, as it is, counted.
jest.mock('@kabari/rules/display-name', () => {
  const actual = jest.requireActual<typeof DisplayNameRule>('@kabari/rules/display-name');
  return { ...actual, displayNameProblem: jest.fn(actual.displayNameProblem) };
});

// jsdom has no modal dialogs: showModal and close as a browser's, the top layer and the inert page aside.
const showModal = jest.fn(function (this: HTMLDialogElement) {
  this.setAttribute('open', '');
});
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = showModal;
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const sandboxTerms: PaymentTerms = {
  currencyCode: 'USD',
  firstDayDebitAmount: 0.99,
  amount: 29.99,
  period: 30,
  nextDebitDay: '2026-11-23T00:00:00.000Z',
  methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: null },
  localChannels: [],
  sandbox: true,
  paymentsConfigured: true,
};

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

async function openAt(url: string, terms: PaymentTerms = sandboxTerms) {
  fakeApi.on('post', '/api/v1/personnal/getPaidAmount', terms);
  await initI18n(localeFromPath(url));
  sessionStorage.clear();
  useOverlayStore.getState().setProductInfo({ searchedNumber: '+6281234567890' });
  useOverlayStore.getState().set('payment', true);
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <SignUpDialog />
        <Where />
      </MemoryRouter>,
    );
  });
  // Opened once the cursor is in the email field: typing elsewhere before that would lose the focus to it.
  await waitFor(() => expect(field('Email')).toHaveFocus());
  return screen.getByRole('dialog');
}

const field = (label: string | RegExp) => screen.getByLabelText(label, { selector: 'input' });

async function fillAccount(password = '') {
  // The server takes 40 characters at most (registerAndSign's displayName).
  expect(field('Your name')).toHaveAttribute('maxlength', '40');
  await userEvent.type(field('Email'), 'ana@example.com');
  await userEvent.type(field('Your name'), 'Ana');
  if (password) await userEvent.type(field('Password (optional)'), password);
  await userEvent.click(screen.getByRole('checkbox', { name: /18 or older/ }));
  await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Use/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
  return screen.findByText('Step 2 of 2: payment');
}

jest.setTimeout(60_000);

describe('SignUpDialog', () => {
  afterEach(() => {
    cleanup();
    useOverlayStore.setState({
      open: { login: false, resetPwd: false, searching: false, payment: false },
      productInfo: null,
    });
  });

  it('says what is missing in the account step, and names the searched number and the real first-day offer', async () => {
    await openAt('/');
    expect(screen.getByText(/You searched for \+6281234567890/)).toBeInTheDocument();
    expect(await screen.findByText(/New-user offer: your first day costs only \$0.99/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Please fill in your name')).toBeInTheDocument();
    expect(screen.getByText('You must be 18 or older to use Kabari')).toBeInTheDocument();
    await userEvent.type(field('Email'), 'ana@example');
    await userEvent.tab();
    expect(await screen.findByText('Enter valid email address')).toBeInTheDocument();
    // Refused: the number is not kept for the dashboard either.
    expect(sessionStorage.getItem('kabari-searched-number')).toBeNull();
  });

  it('ties each error and hint to its field, and puts the cursor in the first wrong field', async () => {
    await openAt('/');
    const email = field('Email');
    expect(email).toHaveAccessibleDescription('Your receipts and sign-in codes go here.');
    expect(email).not.toHaveAttribute('aria-invalid');
    await userEvent.type(field('Your name'), 'Ana');
    await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Use/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(
      'Please enter your email address Your receipts and sign-in codes go here.',
    );
    const adult = screen.getByRole('checkbox', { name: /18 or older/ });
    expect(adult).toHaveAttribute('aria-invalid', 'true');
    expect(adult).toHaveAccessibleDescription('You must be 18 or older to use Kabari');
    expect(field('Your name')).not.toHaveAttribute('aria-invalid');
    // Leaving a field checks it; fixing it and leaving again clears its error.
    await userEvent.type(email, 'ana@example.com');
    await userEvent.type(field('Password (optional)'), 'short');
    await userEvent.tab();
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid');
    await userEvent.click(adult);
    await waitFor(() => expect(adult).not.toHaveAttribute('aria-invalid'));
    // The password can be shown while typing it.
    const reveal = screen.getByRole('button', { name: 'Show password' });
    expect(field('Password (optional)')).toHaveAttribute('type', 'password');
    await userEvent.click(reveal);
    expect(reveal).toHaveAttribute('aria-pressed', 'true');
    expect(field('Password (optional)')).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(field('Password (optional)')).toHaveFocus());
    expect(screen.queryByText('Step 2 of 2: payment')).not.toBeInTheDocument();
  });

  it('opens as a modal dialog that only its close button closes, not Escape', async () => {
    const dialog = await openAt('/id');
    expect(dialog).toHaveAccessibleName('Buat akun Anda');
    expect(showModal).toHaveBeenCalled();
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.keyboard('{Escape}');
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    // Closed by the browser anyway (a repeated Escape may not ask): shown again, with what was typed.
    (dialog as HTMLDialogElement).close();
    expect(dialog).toHaveAttribute('open');
    expect(useOverlayStore.getState().open.payment).toBe(true);
    expect(field('Email')).toHaveValue('ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Tutup' }));
    expect(useOverlayStore.getState().open.payment).toBe(false);
    expect(dialog).not.toHaveAttribute('open');
    // Opened again, it starts empty.
    act(() => useOverlayStore.getState().set('payment', true));
    await waitFor(() => expect(field('Email')).toHaveFocus());
    expect(field('Email')).toHaveValue('');
  });

  it.each([
    {
      url: '/',
      link: 'A name cannot contain a web address or an email address',
      phone: 'A name cannot contain a phone number',
      brand: "A name cannot contain the name of a bank or a payment service, nor Kabari's",
      ui: { name: 'Your name', adult: /18 or older/, terms: /Terms of Use/, next: 'Continue to payment' },
      paymentStep: 'Step 2 of 2: payment',
    },
    {
      url: '/id',
      link: 'Nama tidak boleh berisi alamat web atau alamat email',
      phone: 'Nama tidak boleh berisi nomor telepon',
      brand: 'Nama tidak boleh memuat nama bank, layanan pembayaran, atau Kabari',
      ui: { name: 'Nama Anda', adult: /18 tahun/, terms: /Ketentuan Penggunaan/, next: 'Lanjut ke pembayaran' },
      paymentStep: 'Langkah 2 dari 2: pembayaran',
    },
  ])(
    'at $url, refuses a name that carries a link or a phone number, or passes for a bank, before any payment',
    async (locale) => {
      const { url, link, phone, brand, ui, paymentStep } = locale;
      await openAt(url);
      const name = screen.getByRole('textbox', { name: ui.name });
      // Everything else in the account step is right: only the name keeps it from the payment step.
      await userEvent.type(field('Email'), 'ana@example.com');
      await userEvent.click(screen.getByRole('checkbox', { name: ui.adult }));
      await userEvent.click(screen.getByRole('checkbox', { name: ui.terms }));
      await userEvent.type(name, 'BCA bca-verify.top');
      await userEvent.click(screen.getByRole('button', { name: ui.next }));
      expect(await screen.findByText(link)).toBeInTheDocument();
      expect(screen.queryByText(paymentStep)).not.toBeInTheDocument();
      expect(sessionStorage.getItem('kabari-searched-number')).toBeNull();
      await userEvent.clear(name);
      await userEvent.type(name, 'Call 0812 3456 7890');
      await userEvent.tab();
      expect(await screen.findByText(phone)).toBeInTheDocument();
      await userEvent.clear(name);
      await userEvent.type(name, 'Bank BCA Security');
      await userEvent.tab();
      expect(await screen.findByText(brand)).toBeInTheDocument();
      await userEvent.clear(name);
      await userEvent.type(name, 'Ni Luh Ayu');
      await userEvent.tab();
      await waitFor(() => expect(screen.queryByText(brand)).not.toBeInTheDocument());
      expect(fakeApi.called()).toEqual(['POST /api/v1/personnal/getPaidAmount']);
      // With a plain name the same details go on to the payment step.
      await userEvent.click(screen.getByRole('button', { name: ui.next }));
      expect(await screen.findByText(paymentStep)).toBeInTheDocument();
    },
  );

  it('shows no discount notice when the first day costs no less than a period', async () => {
    await openAt('/', { ...sandboxTerms, firstDayDebitAmount: 29.99 });
    expect(fakeApi.calls('post', '/api/v1/personnal/getPaidAmount').map((call) => call.body)).toEqual([
      { locale: 'en' },
    ]);
    // The payment step shows what is paid once the terms have answered; the account step stays in the page, hidden,
    // so the offer would be in it now if it applied.
    await fillAccount();
    expect(await screen.findByRole('region', { name: 'What you pay' })).toBeInTheDocument();
    expect(screen.queryByText(/New-user offer/)).not.toBeInTheDocument();
  });

  it('pays with the sandbox card and goes to the register result screen in the same language', async () => {
    await openAt('/id/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Nama Anda'), 'Ana');
    await userEvent.type(field('Kata sandi (opsional)'), 'rahasia123');
    await userEvent.click(screen.getByRole('checkbox', { name: /18 tahun/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Ketentuan Penggunaan/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Lanjut ke pembayaran' }));
    const summary = await screen.findByRole('region', { name: 'Yang Anda bayar' });
    // The searched number is kept in this tab for the dashboard, which offers it once paid.
    expect(sessionStorage.getItem('kabari-searched-number')).toBe('+6281234567890');
    expect(within(summary).getByText(/Hari ini Anda membayar US\$0,99 untuk hari pertama/)).toBeInTheDocument();
    expect(within(summary).getByText(/setiap 30 hari/)).toBeInTheDocument();
    expect(screen.getByText(/Formulir kartu sandbox/)).toBeInTheDocument();
    expect(screen.getByText('4000 0000 0000 0002')).toBeInTheDocument();

    fakeApi.on('post', '/api/v1/auth/registerAndSign/v5pay', { registerId: 'reg-1' });
    await userEvent.type(field('Nama depan di kartu'), 'Ana');
    await userEvent.type(field('Nama belakang di kartu'), 'Putri');
    await userEvent.type(field('Nomor kartu'), '4242424242424242');
    await userEvent.type(field('Masa berlaku (BB/TT)'), '1230');
    await userEvent.type(field('CVV'), '123');
    await userEvent.click(screen.getByRole('checkbox', { name: /ketentuan langganan/ }));
    await userEvent.click(screen.getByRole('button', { name: /Bayar/ }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/id/register?id=reg-1'));
    expect(encryptPassword).toHaveBeenCalledWith('rahasia123');
    expect(fakeApi.called().at(-1)).toBe('POST /api/v1/auth/registerAndSign/v5pay');
    const [paid] = fakeApi.calls('post', '/api/v1/auth/registerAndSign/v5pay');
    expect(paid?.body).toEqual({
      email: 'ana@example.com',
      displayName: 'Ana',
      locale: 'id',
      ageConfirmed: true,
      termsAccepted: true,
      termsVersion: '2026-11-22',
      password: 'encrypted(rahasia123)',
      // The try's own id: sent again only when this submission gets no answer (sign-up-attempt.test.ts).
      attemptId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
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
    expect(paid?.options).toEqual(expect.objectContaining({ toastErrors: false }));
    expect(useOverlayStore.getState().open.payment).toBe(false);
  });

  it('refuses a card that fails the checks, and sends nothing', async () => {
    await openAt('/');
    await fillAccount();
    await userEvent.type(field('Card number'), '4242424242424241');
    await userEvent.type(field('Expiry (MM/YY)'), '0120');
    await userEvent.click(screen.getByRole('button', { name: /Pay/ }));
    expect(await screen.findByText('Please enter a valid card number')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid expiry date (MM/YY) that has not passed')).toBeInTheDocument();
    expect(await screen.findByText('Please accept the terms to continue')).toBeInTheDocument();
    expect(fakeApi.called()).toEqual(['POST /api/v1/personnal/getPaidAmount']);
  });

  it('goes back to the account step with the message when the email is already in use', async () => {
    await openAt('/');
    await fillAccount();
    // What POST registerAndSign answers for a taken email (server/test/routes/registration pins it).
    fakeApi.on('post', '/api/v1/auth/registerAndSign/v5pay', fakeApi.fail(409, 'This email address is already in use'));
    await userEvent.click(screen.getByRole('radio', { name: 'Sandbox wallet' }));
    expect(screen.getByText(/Sandbox wallet: a test payment/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /subscription terms/ }));
    await userEvent.click(screen.getByRole('button', { name: /Pay/ }));
    expect(await screen.findByText('This email address is already in use')).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 2: your account')).toBeInTheDocument();
    expect(fakeApi.called().at(-1)).toBe('POST /api/v1/auth/registerAndSign/v5pay');
    expect(fakeApi.calls('post', '/api/v1/auth/registerAndSign/v5pay')[0]?.body).toEqual(
      expect.objectContaining({ method: 'wallet', email: 'ana@example.com' }),
    );
  });

  it('does not check again on Continue a name already checked when its field was left', async () => {
    await openAt('/');
    await userEvent.type(field('Email'), 'ana@example.com');
    await userEvent.type(field('Your name'), 'Ana Kept');
    await userEvent.tab();
    await waitFor(() => expect(displayNameProblem).toHaveBeenCalledWith('Ana Kept'));
    await userEvent.click(screen.getByRole('checkbox', { name: /18 or older/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Use/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Step 2 of 2: payment')).toBeInTheDocument();
    expect(jest.mocked(displayNameProblem).mock.calls.filter(([name]) => name === 'Ana Kept')).toHaveLength(1);
  });
});
