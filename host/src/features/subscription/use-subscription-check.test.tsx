import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { LocationProbe } from '../../testing/location-probe';
import { subscriptionInfoPath } from './subscription-info';
import { useSubscriptionCheck } from './use-subscription-check';
import { signedInUser } from '../../../../jest/signed-in-user';
import { fakeApi } from '../../../../jest/fake-api';

const infoCalls = () => fakeApi.calls('get', subscriptionInfoPath);

/** subscribe/info's answer, of which the check reads expiredStatus. */
const subscription = (expiredStatus: 0 | 1) => ({
  status: expiredStatus ? ('expired' as const) : ('active' as const),
  expiredStatus,
  validUntil: '2026-12-22T10:00:00.000Z',
  periodStart: '2026-11-22T10:00:00.000Z',
  nextPeriodPaid: false,
  nextDebitDay: null,
  amount: 29.99,
  firstDayDebitAmount: 0.99,
  currencyCode: 'USD',
  period: 30,
  provider: 'sandbox' as const,
  sandbox: true,
  cancelledAt: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  waitingPayment: null,
});

/** Once the check has asked: the answer reaches the hook through promises only, so one macrotask later it has acted. */
async function answered(calls: number) {
  await waitFor(() => expect(infoCalls()).toHaveLength(calls));
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

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
  beforeEach(() => useUserStore.getState().setUser(signedInUser()));
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it('sends an expired subscriber to the expired state, in the same language', async () => {
    fakeApi.on('get', subscriptionInfoPath, subscription(1));
    await renderAt('/id/dashboard/modules/MySubscription');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/?s=-1&at=10'));
  });

  it('leaves an expired subscriber who is already there', async () => {
    fakeApi.on('get', subscriptionInfoPath, subscription(1));
    await renderAt('/dashboard/?s=-1&at=10');
    await answered(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/?s=-1&at=10');
  });

  it('leaves an active subscriber, and an account without a subscription (404), where they are', async () => {
    fakeApi.on('get', subscriptionInfoPath, subscription(0));
    await renderAt('/dashboard');
    await answered(1);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
    cleanup();
    // 404: the account has no subscription, which is nobody's error.
    fakeApi.on('get', subscriptionInfoPath, fakeApi.fail(404, 'No subscription'));
    await renderAt('/dashboard');
    await answered(2);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
  });

  it('asks nothing without a token', async () => {
    clearSession();
    await renderAt('/dashboard');
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(fakeApi.called()).toEqual([]);
  });
});
