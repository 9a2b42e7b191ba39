import { screen } from '@testing-library/react';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fetchRenewalTerms, fetchSubscriptionInfo, type SubscriptionInfo } from '../../lib/subscription-api';
import SubscriptionExpiredDialog from './subscription-expired-dialog';

jest.mock('../../lib/subscription-api', () => ({
  fetchRenewalTerms: jest.fn(),
  fetchSubscriptionInfo: jest.fn(),
  renewSubscription: jest.fn(),
}));

/** A subscription taken on the Indonesian pages, in rupiah. */
const rupiahTerms: PaymentTerms = {
  currencyCode: 'IDR',
  firstDayDebitAmount: 449000,
  amount: 449000,
  period: 30,
  nextDebitDay: '2031-02-01T00:00:00.000Z',
  methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox' },
  sandbox: true,
  paymentsConfigured: true,
};

describe('the expired state’s renewal', () => {
  beforeEach(() => {
    jest.mocked(fetchSubscriptionInfo).mockResolvedValue({
      status: 'expired',
      expiredStatus: 1,
      validUntil: '2031-01-01T00:00:00.000Z',
    } as SubscriptionInfo);
    jest.mocked(fetchRenewalTerms).mockResolvedValue(rupiahTerms);
  });

  it('offers paying again at the subscription’s own price, even on the English pages', async () => {
    await renderAt('/dashboard/', <SubscriptionExpiredDialog open onClose={jest.fn()} />);
    expect(await screen.findByText('Today you pay IDR 449,000 for the next 30 days.')).toBeInTheDocument();
    expect(screen.getByText('Pay IDR 449,000')).toBeInTheDocument();
    expect(screen.queryByText(/\$29\.99/)).not.toBeInTheDocument();
    expect(fetchRenewalTerms).toHaveBeenCalledTimes(1);
  });
});
