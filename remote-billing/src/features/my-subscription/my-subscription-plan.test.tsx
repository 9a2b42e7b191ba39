import { act, cleanup, render, screen, within } from '@testing-library/react';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import type { PaymentRecord } from '../../lib/subscription-api';
import { fakeApi } from '../../../../jest/fake-api';
import MySubscriptionDialog from './my-subscription-dialog';

const active = activeSubscription;

jest.setTimeout(30_000);

describe('My subscription: plan and payments', () => {
  afterEach(() => {
    cleanup();
  });

  it('My subscription shows the plan, status, valid-until date, next charge and the payments', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', active);
    fakeApi.on('get', '/api/v1/personnal/payments', {
      items: [
        {
          id: 'p1',
          kind: 'first_day',
          amount: 0.99,
          currencyCode: 'USD',
          state: 'succeeded',
          ended: null,
          refundedAmount: 0,
          cardBrand: 'visa',
          cardLast4: '4242',
          createdAt: '2026-11-21T10:00:00.000Z',
        },
      ],
    });
    fakeApi.on('get', '/api/v1/personnal/sessions', { items: [] });
    await initI18n('en');
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/dashboard/modules/MySubscription']}>
          <MySubscriptionDialog open onClose={() => undefined} />
        </MemoryRouter>,
      );
    });
    expect(await screen.findByText('$29.99 every 30 days')).toBeInTheDocument();
    expect(screen.getByTestId('subscription-status')).toHaveTextContent('Active');
    expect(screen.getByTestId('subscription-valid-until')).toHaveTextContent('22 December 2026');
    expect(screen.getByText('$29.99 on 22 December 2026')).toBeInTheDocument();
    expect(screen.getByText('visa •••• 4242')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
    // The payment's state in words, never the API's value.
    expect(screen.getByText('Paid')).toBeInTheDocument();
    expect(screen.queryByText('succeeded')).not.toBeInTheDocument();
  });

  it('the payment history says each state in Indonesian', async () => {
    const payment = (
      id: string,
      state: PaymentRecord['state'],
      ended: PaymentRecord['ended'] = null,
    ): PaymentRecord => ({
      id,
      kind: 'renewal',
      amount: 449000,
      currencyCode: 'IDR',
      state,
      ended,
      refundedAmount: 0,
      cardBrand: null,
      cardLast4: null,
      createdAt: '2026-11-21T10:00:00.000Z',
    });
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', { ...active, currencyCode: 'IDR', amount: 449000 });
    fakeApi.on('get', '/api/v1/personnal/payments', {
      items: [
        payment('p1', 'succeeded'),
        payment('p2', 'failed'),
        payment('p3', 'pending'),
        payment('p4', 'refunded'),
        // Ended by the subscriber, or left to run out: not a refusal.
        payment('p5', 'failed', 'cancelled'),
        payment('p6', 'failed', 'expired'),
      ],
    });
    fakeApi.on('get', '/api/v1/personnal/sessions', { items: [] });
    await initI18n('id');
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/id/dashboard/modules/MySubscription']}>
          <MySubscriptionDialog open onClose={() => undefined} />
        </MemoryRouter>,
      );
    });
    const history = (await screen.findByText('Berhasil')).closest('table')!;
    for (const text of ['Berhasil', 'Gagal', 'Diproses', 'Dikembalikan', 'Dibatalkan', 'Kedaluwarsa']) {
      expect(within(history).getByText(text)).toBeInTheDocument();
    }
    for (const raw of ['succeeded', 'failed', 'pending', 'refunded']) {
      expect(within(history).queryByText(raw)).not.toBeInTheDocument();
    }
  });
});
