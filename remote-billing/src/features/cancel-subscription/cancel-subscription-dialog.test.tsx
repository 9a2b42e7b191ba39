import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import { fakeApi } from '../../../../jest/fake-api';
import CancelSubscriptionDialog from './cancel-subscription-dialog';

const active = activeSubscription;

jest.setTimeout(30_000);

describe('the cancel subscription dialog', () => {
  afterEach(() => {
    cleanup();
  });

  it('the cancel confirmation says how long access lasts, and cancels', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', active);
    fakeApi.on('post', '/api/v1/personnal/subscribe/cancel', {
      ...active,
      status: 'cancelled',
      nextDebitDay: null,
      cancelledAt: '2026-11-22T10:00:00.000Z',
    });
    await initI18n('id');
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/id/dashboard/modules/cancleMySubscriptionModal']}>
          <CancelSubscriptionDialog open onClose={() => undefined} />
        </MemoryRouter>,
      );
    });
    expect(await screen.findByText(/Akses Anda tetap berlaku sampai 22 Desember 2026/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Batalkan langganan' }));
    expect(await screen.findByTestId('cancelled-until')).toHaveTextContent(
      'Langganan Anda sudah dibatalkan. Akses Anda berlaku sampai 22 Desember 2026.',
    );
    expect(fakeApi.calls('post', '/api/v1/personnal/subscribe/cancel').map((call) => call.body)).toEqual([undefined]);
  });
});
