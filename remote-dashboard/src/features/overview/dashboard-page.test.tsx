import { act, screen } from '@testing-library/react';
import { clearSession, useTokenStore, useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../../jest/render-with-i18n';
import DashboardPage from './dashboard-page';

describe('DashboardPage', () => {
  afterEach(() => clearSession());

  it('reads the signed-in user from the shared session store, live', async () => {
    useTokenStore.getState().setToken('t0k3n');
    useUserStore.getState().setUser({ userCacheInfo: { displayName: 'Ana' } });
    await renderAt('/dashboard', <DashboardPage />);
    expect(screen.getByTestId('dashboard-user')).toHaveTextContent('Signed in as Ana');

    act(() => clearSession());
    expect(screen.getByTestId('dashboard-signed-out')).toBeInTheDocument();
  });

  it('speaks Indonesian under /id', async () => {
    await renderAt('/id/dashboard', <DashboardPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dasbor');
  });
});
