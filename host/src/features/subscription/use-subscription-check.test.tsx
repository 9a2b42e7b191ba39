import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { LocationProbe } from '../../testing/location-probe';
import { fetchSubscriptionInfo } from './subscription-info';
import { useSubscriptionCheck } from './use-subscription-check';
import { signedInUser } from '../../../../jest/signed-in-user';

jest.mock('./subscription-info', () => ({
  fetchSubscriptionInfo: jest.fn(),
  isExpired: (info: { expiredStatus?: number } | null) => info?.expiredStatus === 1,
}));

const fetchMock = fetchSubscriptionInfo as jest.MockedFunction<typeof fetchSubscriptionInfo>;

function Checked() {
  useSubscriptionCheck();
  return null;
}

async function renderAt(url: string) {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="*" element={<Checked />} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>,
    );
  });
}

describe('subscription check on protected navigation', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    useUserStore.getState().setUser(signedInUser());
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it('sends an expired subscriber to the expired state, in the same language', async () => {
    fetchMock.mockResolvedValue({ expiredStatus: 1 });
    await renderAt('/id/dashboard/modules/MySubscription');
    expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/?s=-1&at=10');
  });

  it('leaves an expired subscriber who is already there', async () => {
    fetchMock.mockResolvedValue({ expiredStatus: 1 });
    await renderAt('/dashboard/?s=-1&at=10');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/?s=-1&at=10');
  });

  it('leaves an active subscriber, and a server without the endpoint yet (null), where they are', async () => {
    fetchMock.mockResolvedValueOnce({ expiredStatus: 0 });
    await renderAt('/dashboard');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
    cleanup();
    fetchMock.mockResolvedValueOnce(null);
    await renderAt('/dashboard');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
  });

  it('asks nothing without a token', async () => {
    clearSession();
    await renderAt('/dashboard');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
