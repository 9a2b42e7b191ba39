import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { activeSubscription } from '../../lib/subscription-info.fixture';
import CancelSubscriptionDialog from './cancel-subscription-dialog';

jest.mock('@kabari/shared/api/api-client', () => ({ apiPost: jest.fn(), apiGet: jest.fn(), apiRawGet: jest.fn() }));

const getMock = apiGet as jest.MockedFunction<typeof apiGet>;
const postMock = apiPost as jest.MockedFunction<typeof apiPost>;

const active = activeSubscription;

jest.setTimeout(30_000);

describe('the cancel subscription dialog', () => {
  afterEach(() => {
    cleanup();
    getMock.mockReset();
    postMock.mockReset();
  });

  it('the cancel confirmation says how long access lasts, and cancels', async () => {
    getMock.mockResolvedValue(active);
    postMock.mockResolvedValue({
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
    expect(postMock).toHaveBeenCalledWith('/api/v1/personnal/subscribe/cancel', undefined, expect.anything());
  });
});
