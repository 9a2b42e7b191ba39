import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { AuditLogPage } from './audit-log-page';

const entry = (id: number, action: string) => ({
  id,
  at: '2026-12-04T10:00:00.000Z',
  operatorEmail: 'desk@kabari.example',
  action,
  objectType: 'abuse_report',
  objectId: 'report-1',
  note: 'Harassing three numbers',
});

describe('the audit log', () => {
  afterEach(cleanup);

  it('shows who did what to which object, with the note, a page at a time', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/audit-log', (_body, call) =>
      call.query.before === 'c-2'
        ? { entries: [entry(1, 'report.dismissed')], next: null }
        : { entries: [entry(2, 'report.suspended')], next: 'c-2' },
    );
    await renderInConsole('/operator/audit-log', '/audit-log', <AuditLogPage />);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(
      /desk@kabari\.example.*report\.suspended.*abuse_report report-1.*Harassing three numbers/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('report.dismissed')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/operator/audit-log').map((call) => call.query)).toEqual([
      {},
      { before: 'c-2' },
    ]);
  });
});
