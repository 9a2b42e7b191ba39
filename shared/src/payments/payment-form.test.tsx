import { screen } from '@testing-library/react';
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
  methods: { card: null, wallet: null, paypal: null },
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
