import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadStripe } from '@stripe/stripe-js';
import { renderAt } from '../../../jest/render-with-i18n';
import { PaymentForm, type PaymentHandlers, type StripeOutcome } from './payment-form';
import type { PaymentTerms } from './payment-terms';

// Stripe.js comes from stripe.com, which tests cannot reach: loadStripe answers a stand-in that records the
// Express Checkout Element's handlers, so each test plays the wallet sheet's part (ready, click, confirm).
jest.mock('@stripe/stripe-js', () => ({ loadStripe: jest.fn() }));
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });

type Handler = (event: Record<string, unknown>) => void;
const walletEvents = new Map<string, Handler>();
const mounted = jest.fn();
const fakeStripe = {
  elements: jest.fn(() => ({
    create: jest.fn(() => ({
      on: (name: string, handler: Handler) => walletEvents.set(name, handler),
      mount: mounted,
      destroy: jest.fn(),
    })),
    submit: jest.fn(async () => ({})),
  })),
  createPaymentMethod: jest.fn(async () => ({ paymentMethod: { id: 'pm_wallet_1' } })),
  confirmCardPayment: jest.fn(),
};
jest.mocked(loadStripe).mockResolvedValue(fakeStripe as never);

const terms: PaymentTerms = {
  currencyCode: 'USD',
  firstDayDebitAmount: 0.99,
  amount: 29.99,
  period: 30,
  nextDebitDay: '2031-01-02T00:00:00.000Z',
  methods: { card: 'stripe', wallet: 'stripe', paypal: null, local: null },
  localChannels: [],
  sandbox: false,
  paymentsConfigured: true,
  stripePublishableKey: 'pk_test_kabari',
  stripeAmounts: { firstDayDebitAmount: 99, amount: 2999 },
};

/** Opens the form on the wallet method, accepts the terms and pays through the wallet sheet. */
async function payWithWallet(outcome: StripeOutcome, kind: 'signUp' | 'renewal' = 'signUp') {
  const stripe = jest.fn<Promise<StripeOutcome>, Parameters<PaymentHandlers['stripe']>>().mockResolvedValue(outcome);
  const onPaid = jest.fn();
  const handlers: PaymentHandlers = { sandbox: jest.fn(), stripe };
  await renderAt(
    '/',
    <PaymentForm name="wallet-test" kind={kind} terms={terms} locale="en" handlers={handlers} onPaid={onPaid} />,
  );
  await userEvent.click(screen.getByRole('radio', { name: 'Apple Pay / Google Pay' }));
  await waitFor(() => expect(mounted).toHaveBeenCalled());
  act(() => walletEvents.get('ready')!({ availablePaymentMethods: { applePay: true } }));
  await userEvent.click(screen.getByRole('checkbox', { name: /I accept the Terms of Use/ }));
  const click = { resolve: jest.fn(), reject: jest.fn() };
  act(() => walletEvents.get('click')!(click));
  expect(click.resolve).toHaveBeenCalled();
  const confirm = { paymentFailed: jest.fn() };
  act(() => walletEvents.get('confirm')!(confirm));
  await waitFor(() => expect(stripe).toHaveBeenCalledWith({ method: 'wallet', paymentMethodId: 'pm_wallet_1' }));
  return { onPaid, confirm };
}

describe('paying with a wallet through Stripe', () => {
  beforeEach(() => {
    walletEvents.clear();
    mounted.mockClear();
    fakeStripe.elements.mockClear();
    fakeStripe.confirmCardPayment.mockReset();
  });

  it('asks Stripe for the amount the server counted in Stripe’s units, not one worked out here', async () => {
    await payWithWallet({ registerId: 'reg-amount', requiresAction: false });
    expect(fakeStripe.elements).toHaveBeenCalledWith(expect.objectContaining({ amount: 99, currency: 'usd' }));
  });

  it('asks for a whole period’s amount when renewing', async () => {
    await payWithWallet({ registerId: 'reg-renewal', requiresAction: false }, 'renewal');
    expect(fakeStripe.elements).toHaveBeenCalledWith(expect.objectContaining({ amount: 2999, currency: 'usd' }));
  });

  it('offers no wallet when the server gives the key without Stripe’s amount', async () => {
    const withoutAmount: PaymentTerms = { ...terms, stripeAmounts: undefined };
    await renderAt(
      '/',
      <PaymentForm
        name="wallet-test"
        terms={withoutAmount}
        locale="en"
        handlers={{ sandbox: jest.fn(), stripe: jest.fn() }}
        onPaid={jest.fn()}
      />,
    );
    await userEvent.click(screen.getByRole('radio', { name: 'Apple Pay / Google Pay' }));
    expect(
      await screen.findByText(
        'Apple Pay and Google Pay are not available in this browser. Please choose another method.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(fakeStripe.elements).not.toHaveBeenCalledWith(expect.objectContaining({ mode: 'payment' }));
  });

  it('completes a 3-D Secure step with confirmCardPayment before going to the result screen', async () => {
    let confirmed!: () => void;
    fakeStripe.confirmCardPayment.mockImplementation(
      () => new Promise((resolve) => (confirmed = () => resolve({ paymentIntent: { status: 'succeeded' } }))),
    );
    const { onPaid, confirm } = await payWithWallet({
      registerId: 'reg-3ds',
      requiresAction: true,
      clientSecret: 'pi_1_secret_x',
    });
    await waitFor(() => expect(fakeStripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x'));
    // Not before the payer has confirmed with the bank.
    expect(onPaid).not.toHaveBeenCalled();
    await act(async () => confirmed());
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('reg-3ds'));
    expect(confirm.paymentFailed).not.toHaveBeenCalled();
  });

  it('a confirmation the bank refuses still leads to the result screen, which reads the decline', async () => {
    fakeStripe.confirmCardPayment.mockResolvedValue({ error: { type: 'card_error', code: 'card_declined' } });
    const { onPaid } = await payWithWallet({ registerId: 'reg-refused', requiresAction: true, clientSecret: 'pi_2_x' });
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('reg-refused'));
    expect(fakeStripe.confirmCardPayment).toHaveBeenCalledTimes(1);
  });

  it('goes straight to the result screen when no next step is needed', async () => {
    const { onPaid } = await payWithWallet({ registerId: 'reg-plain', requiresAction: false });
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('reg-plain'));
    expect(fakeStripe.confirmCardPayment).not.toHaveBeenCalled();
  });
});
