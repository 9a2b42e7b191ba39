import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from '@kabari/shared/routing/router';
import { fakeApi } from '../../../jest/fake-api';
import { renderAt } from '../../../jest/render-with-i18n';
import { operatorSession } from '../testing/render-in-console';
import OperatorConsole from './operator-console';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

async function renderConsole(url: string) {
  await act(async () => {
    await renderAt(
      url,
      <>
        <Routes>
          <Route path="/operator/*" element={<OperatorConsole />} />
          <Route path="/id/operator/*" element={<OperatorConsole />} />
        </Routes>
        <LocationProbe />
      </>,
    );
  });
}

describe('the operator console', () => {
  afterEach(cleanup);

  it('sends anyone without a session to sign-in, keeping the page asked for, with no console links', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    await renderConsole('/id/operator/refunds');
    expect(await screen.findByRole('heading', { level: 1, name: 'Masuk sebagai operator' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/id/operator/sign-in?next=%2Fid%2Foperator%2Frefunds');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('shows a signed-in operator the sections and signs out', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports', { reports: [], next: null });
    fakeApi.on('delete', '/api/v1/operator/session', { success: true });
    await renderConsole('/operator');
    const nav = await screen.findByRole('navigation', { name: 'Console' });
    expect([...nav.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual([
      '/operator',
      '/operator/refunds',
      '/operator/contact-messages',
      '/operator/failed-messages',
      '/operator/sms-spend',
      '/operator/audit-log',
    ]);
    expect(screen.getByText('Signed in as desk@kabari.example')).toBeInTheDocument();
    expect(await screen.findByText('No reports here.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Operator sign-in' })).toBeInTheDocument();
    expect(fakeApi.calls('delete', '/api/v1/operator/session')).toHaveLength(1);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('goes back to sign-in, saying why, once the session has been idle past its limit', async () => {
    const session = operatorSession();
    fakeApi.on('get', '/api/v1/operator/session', {
      ...session,
      idleExpiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    fakeApi.on('get', '/api/v1/operator/audit-log', { entries: [], next: null });
    await renderConsole('/operator/audit-log');
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
    expect(await screen.findByText('Your session has ended. Sign in again to go on.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/operator/sign-in?next=%2Foperator%2Faudit-log');
  });

  it('switches language on the same console page', async () => {
    fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
    await renderConsole('/operator/sign-in');
    await userEvent.click(await screen.findByRole('link', { name: /Bahasa Indonesia/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Masuk sebagai operator' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/id\/operator\/sign-in$/);
  });
});
