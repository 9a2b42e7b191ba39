import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { reportSummary } from './report-fixtures';
import { ReportsPage } from './reports-page';

describe('the reports list', () => {
  afterEach(cleanup);

  it('shows the open reports newest first, pages back, and shows the closed ones on their tab', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports', (_body, call) => {
      if (call.query.state === 'closed') {
        return { reports: [reportSummary('r-closed', { state: 'closed', outcome: 'suspended' })], next: null };
      }
      if (call.query.before === 'cursor-2') return { reports: [reportSummary('r-old')], next: null };
      return { reports: [reportSummary('r-new', { requester: null })], next: 'cursor-2' };
    });
    await renderInConsole('/operator', '', <ReportsPage />);

    const link = await screen.findByRole('link', { name: /Open report from/ });
    expect(link).toHaveAttribute('href', '/operator/reports/r-new');
    expect(screen.getByText(/Account deleted/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText(/Rina Wijaya/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open report from/ })).toHaveAttribute('href', '/operator/reports/r-old');

    await userEvent.click(screen.getByRole('tab', { name: 'Closed' }));
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/operator/reports').map((call) => call.query)).toEqual([
      { state: 'open' },
      { state: 'open', before: 'cursor-2' },
      { state: 'closed' },
    ]);
  });

  it('sends the operator to sign-in when the session has ended (every console route answers 404 then)', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports', () => {
      fakeApi.on('get', '/api/v1/operator/session', fakeApi.fail(404, 'Not Found'));
      return fakeApi.fail(404, 'Not Found');
    });
    await renderInConsole('/id/operator', '', <ReportsPage />);
    // The console's frame (operator-console.tsx) moves a signed-out operator on; the page shows no failure of its own.
    await waitFor(() => expect(fakeApi.calls('get', '/api/v1/operator/session')).toHaveLength(2));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
