import { cleanup, screen, within } from '@testing-library/react';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { SmsSpendPage } from './sms-spend-page';
import type { SmsSpend } from './sms-spend-api';

describe("today's SMS spend", () => {
  afterEach(cleanup);

  it('shows the day against the caps, per country and per account, in Indonesian', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/sms-spend', {
      day: '2026-12-04',
      currency: 'USD',
      caps: { dailyBudget: 500, perAccountPerDay: 20, countries: ['ID', 'US'] },
      total: { count: 12, spentMinor: 60, capMinor: 2500 },
      perCountry: [
        { country: 'ID', count: 10, spentMinor: 50, allowed: true },
        { country: 'unknown', count: 2, spentMinor: 10, allowed: false },
      ],
      perAccount: [{ userId: 'user-1', displayName: 'Rina Wijaya', count: 9, spentMinor: 45, cap: 20 }],
    } as SmsSpend);
    await renderInConsole('/id/operator/sms-spend', '/sms-spend', <SmsSpendPage />);

    expect(await screen.findByText('12 dari 500 pesan')).toBeInTheDocument();
    expect(screen.getByText(/US\$0,60 dari US\$25/)).toBeInTheDocument();
    const countries = screen.getByRole('table', { name: 'Per negara' });
    expect(within(countries).getAllByRole('row')[1]).toHaveTextContent('Indonesia');
    expect(within(countries).getAllByRole('row')[2]).toHaveTextContent('Tidak diketahui');
    const accounts = screen.getByRole('table', { name: 'Per akun' });
    expect(within(accounts).getAllByRole('row')[1]).toHaveTextContent(/Rina Wijaya\s*9.*20/);
  });
});
