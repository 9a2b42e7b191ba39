import { act, configure, screen, waitFor } from '@testing-library/react';
import { loadScript, type PayPalButtonsComponentOptions } from '@paypal/paypal-js';
import { renderAt } from '../../../jest/render-with-i18n';
import { PaypalButton } from './paypal-button';

// The PayPal JS SDK comes from paypal.com, which tests cannot reach: loadScript is replaced by a stand-in that
// records what the button was given, so each test can play PayPal's part (click, approve, error).
jest.mock('@paypal/paypal-js', () => ({ loadScript: jest.fn() }));
const load = jest.mocked(loadScript);
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });

interface FakeButtons {
  options: PayPalButtonsComponentOptions;
  renderedInto: HTMLElement | null;
  close: jest.Mock;
}

function fakePaypal(): { buttons: Promise<FakeButtons> } {
  let resolveButtons!: (buttons: FakeButtons) => void;
  const buttons = new Promise<FakeButtons>((resolve) => (resolveButtons = resolve));
  load.mockResolvedValue({
    Buttons: (options: PayPalButtonsComponentOptions) => {
      const made: FakeButtons = { options, renderedInto: null, close: jest.fn().mockResolvedValue(undefined) };
      return {
        render: async (into: HTMLElement) => {
          made.renderedInto = into;
          resolveButtons(made);
        },
        close: made.close,
        isEligible: () => true,
        updateProps: async () => undefined,
        hasReturned: () => false,
        resume: () => undefined,
      };
    },
  } as never);
  return { buttons };
}

function props(overrides: Partial<Parameters<typeof PaypalButton>[0]> = {}) {
  return {
    clientId: 'client-id-from-runtime-config',
    currencyCode: 'IDR',
    locale: 'id' as const,
    mayPay: () => true,
    createOrder: jest.fn().mockResolvedValue('ORDER-1'),
    approve: jest.fn().mockResolvedValue(undefined),
    onFailure: jest.fn(),
    ...overrides,
  };
}

describe('the PayPal button', () => {
  beforeEach(() => load.mockReset());

  it("loads PayPal's SDK for the client id, currency and reader's language, then renders the button", async () => {
    const { buttons } = fakePaypal();
    await renderAt('/id/', <PaypalButton {...props()} />);
    expect(screen.getByText('Memuat PayPal…')).toBeInTheDocument();
    const made = await act(() => buttons);
    expect(load).toHaveBeenCalledWith({
      clientId: 'client-id-from-runtime-config',
      currency: 'IDR',
      locale: 'id_ID',
      intent: 'capture',
    });
    expect(made.renderedInto).toBeInstanceOf(HTMLDivElement);
    await waitFor(() => expect(screen.queryByText('Memuat PayPal…')).not.toBeInTheDocument());
  });

  it('refuses the click until the terms are accepted, and goes on once they are', async () => {
    const { buttons } = fakePaypal();
    let accepted = false;
    await renderAt('/', <PaypalButton {...props({ locale: 'en', mayPay: () => accepted })} />);
    const made = await act(() => buttons);
    const actions = { resolve: jest.fn(), reject: jest.fn() };
    await made.options.onClick!({ fundingSource: 'paypal' } as never, actions as never);
    expect(actions.reject).toHaveBeenCalledTimes(1);
    expect(actions.resolve).not.toHaveBeenCalled();
    accepted = true;
    await made.options.onClick!({ fundingSource: 'paypal' } as never, actions as never);
    expect(actions.resolve).toHaveBeenCalledTimes(1);
  });

  it('lets our server create the order and capture it once the buyer approves', async () => {
    const { buttons } = fakePaypal();
    const createOrder = jest.fn().mockResolvedValue('ORDER-42');
    const approve = jest.fn().mockResolvedValue(undefined);
    await renderAt('/', <PaypalButton {...props({ locale: 'en', createOrder, approve })} />);
    const made = await act(() => buttons);
    await expect(made.options.createOrder!({} as never, {} as never)).resolves.toBe('ORDER-42');
    await made.options.onApprove!({ orderID: 'ORDER-42' } as never, {} as never);
    expect(approve).toHaveBeenCalledWith('ORDER-42');
  });

  it("hands PayPal's errors to the form", async () => {
    const { buttons } = fakePaypal();
    const onFailure = jest.fn();
    await renderAt('/', <PaypalButton {...props({ locale: 'en', onFailure })} />);
    const made = await act(() => buttons);
    const error = new Error('INSTRUMENT_DECLINED');
    made.options.onError!(error as never);
    expect(onFailure).toHaveBeenCalledWith(error);
  });

  it('says so when PayPal cannot be loaded, in the reader’s language', async () => {
    load.mockRejectedValue(new Error('network'));
    await renderAt('/id/', <PaypalButton {...props()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('PayPal tidak dapat dimuat.');
  });

  it('closes the button when the form goes away', async () => {
    const { buttons } = fakePaypal();
    const view = await renderAt('/', <PaypalButton {...props({ locale: 'en' })} />);
    const made = await act(() => buttons);
    view.unmount();
    expect(made.close).toHaveBeenCalledTimes(1);
  });
});
