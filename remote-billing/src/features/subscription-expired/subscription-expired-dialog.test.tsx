import { screen } from '@testing-library/react';
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
});
