import { act, cleanup, render, screen, within } from '@testing-library/react';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import type { PaymentRecord } from '../../lib/subscription-api';
import { fakeApi } from '../../../../jest/fake-api';
import MySubscriptionDialog from './my-subscription-dialog';

jest.setTimeout(30_000);

const info = (currencyCode: string, amount: number) => ({
  ...activeSubscription,
  amount,
  currencyCode,
  provider: 'stripe' as const,
  sandbox: false,
});

const payment = (
  id: string,
  state: PaymentRecord['state'],
  amount: number,
  refundedAmount: number,
  currencyCode: string,
): PaymentRecord => ({
  id,
  kind: 'renewal',
  amount,
  currencyCode,
  state,
  ended: null,
  refundedAmount,
  cardBrand: 'visa',
  cardLast4: '4242',
  createdAt: '2026-11-21T10:00:00.000Z',
});

async function openWith(locale: 'en' | 'id', currencyCode: string, items: ReturnType<typeof payment>[]) {
  fakeApi.on('get', '/api/v1/personnal/subscribe/info', info(currencyCode, items[0]!.amount));
  fakeApi.on('get', '/api/v1/personnal/payments', { items });
  fakeApi.on('get', '/api/v1/personnal/sessions', { items: [] });
  await initI18n(locale);
  await act(async () => {
    render(
      <MemoryRouter
        initialEntries={[
          locale === 'id' ? '/id/dashboard/modules/MySubscription' : '/dashboard/modules/MySubscription',
        ]}
      >
        <MySubscriptionDialog open onClose={() => undefined} />
      </MemoryRouter>,
    );
  });
  const title = locale === 'id' ? 'Riwayat pembayaran' : 'Payment history';
  return (await screen.findByRole('table', { name: title })) as HTMLElement;
}

/** The state cell of the row with this payment's place in the list. */
const stateCell = (table: HTMLElement, row: number) =>
  within(within(table).getAllByRole('row')[row + 1]!).getAllByRole('cell')[3]!;

describe('My subscription: the payment history', () => {
  afterEach(() => {
    cleanup();
  });

  it('a partly refunded payment says how much came back, in its currency (English)', async () => {
    const table = await openWith('en', 'USD', [
      payment('p1', 'partly_refunded', 29.99, 10, 'USD'),
      payment('p2', 'refunded', 29.99, 29.99, 'USD'),
      payment('p3', 'succeeded', 29.99, 0, 'USD'),
    ]);
    expect(stateCell(table, 0)).toHaveTextContent(/^Partly refunded: \$10 back$/);
    // A full refund and a plain payment say only their state.
    expect(stateCell(table, 1)).toHaveTextContent(/^Refunded$/);
    expect(stateCell(table, 2)).toHaveTextContent(/^Paid$/);
  });

  it('a partly refunded payment says how much came back, in its currency (Indonesian)', async () => {
    const table = await openWith('id', 'IDR', [
      payment('p1', 'partly_refunded', 449000, 100000, 'IDR'),
      payment('p2', 'partly_refunded', 449000, 0, 'IDR'),
    ]);
    const refunded = new Intl.NumberFormat('id-ID', {
      style: 'currency',
      currency: 'IDR',
      maximumFractionDigits: 0,
    }).format(100000);
    expect(stateCell(table, 0).textContent).toBe(`Sebagian dikembalikan: ${refunded}`);
    expect(stateCell(table, 0).textContent).toContain('100.000');
    // No amount reported: the state alone.
    expect(stateCell(table, 1).textContent).toBe('Sebagian dikembalikan');
  });
});
