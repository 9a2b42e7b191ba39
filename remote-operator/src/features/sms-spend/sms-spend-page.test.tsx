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
      total: { count: 12, spentMinor: 54, capMinor: 2500 },
      sms: { count: 9, spentMinor: 45 },
      whatsapp: { count: 3, spentMinor: 9 },
      perCountry: [
        { country: 'ID', count: 10, whatsappCount: 3, spentMinor: 44, allowed: true },
        { country: 'unknown', count: 2, whatsappCount: 0, spentMinor: 10, allowed: false },
      ],
      perAccount: [
        { userId: 'user-1', displayName: 'Rina Wijaya', count: 9, whatsappCount: 3, spentMinor: 39, cap: 20 },
      ],
    } as SmsSpend);
    await renderInConsole('/id/operator/sms-spend', '/sms-spend', <SmsSpendPage />);

    expect(await screen.findByText('12 dari 500 pesan')).toBeInTheDocument();
    expect(screen.getByText(/US\$0,54 dari US\$25/)).toBeInTheDocument();
    // SMS and WhatsApp each on their own line, at their own price.
    expect(screen.getByText('9 pesan, US$0,45').closest('tr')).toHaveTextContent(/^SMS/);
    expect(screen.getByText('3 pesan, US$0,09').closest('tr')).toHaveTextContent(/^WhatsApp/);
    const countries = screen.getByRole('table', { name: 'Per negara' });
    expect(within(countries).getByRole('columnheader', { name: 'Lewat WhatsApp' })).toBeInTheDocument();
    expect(within(countries).getAllByRole('row')[1]).toHaveTextContent(/Indonesia\s*10\s*3/);
    expect(within(countries).getAllByRole('row')[2]).toHaveTextContent('Tidak diketahui');
    const accounts = screen.getByRole('table', { name: 'Per akun' });
    expect(within(accounts).getAllByRole('row')[1]).toHaveTextContent(/Rina Wijaya\s*9\s*3.*20/);
  });

  it('leaves the WhatsApp line out where none were sent and it has no price, in English', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/sms-spend', {
      day: '2026-12-04',
      currency: 'USD',
      caps: { dailyBudget: 500, perAccountPerDay: 20, countries: ['ID'] },
      total: { count: 2, spentMinor: 10, capMinor: 2500 },
      sms: { count: 2, spentMinor: 10 },
      whatsapp: { count: 0, spentMinor: null },
      perCountry: [{ country: 'ID', count: 2, whatsappCount: 0, spentMinor: 10, allowed: true }],
      perAccount: [],
    } as SmsSpend);
    await renderInConsole('/operator/sms-spend', '/sms-spend', <SmsSpendPage />);

    expect(await screen.findByText('2 messages, $0.10')).toBeInTheDocument();
    expect(screen.queryByText('WhatsApp')).not.toBeInTheDocument();
  });
});
