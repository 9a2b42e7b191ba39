import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fill } from '../../testing/fill';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { reportDetail } from './report-fixtures';
import { ReportPage } from './report-page';

describe('a report', () => {
  afterEach(cleanup);

  it('shows the report, the voice note the recipient heard, the request and the requester', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports/{id}', reportDetail());
    await renderInConsole('/operator/reports/report-1', '/reports/:id', <ReportPage />);

    expect(await screen.findByText('Keeps sending me requests at night.')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/operator/reports/{id}').map((call) => call.path)).toEqual([
      { id: 'report-1' },
    ]);
    expect(screen.getByLabelText('Voice note the recipient heard')).toHaveAttribute(
      'src',
      '/api/v1/operator/reports/report-1/voice-note',
    );
    expect(screen.getByText('+62 812-•••-•789')).toBeInTheDocument();
    expect(screen.getByText('Where are you?')).toBeInTheDocument();
    expect(screen.getByText(/^14 days \(since/)).toBeInTheDocument();
    expect(screen.getByText('Indonesia')).toBeInTheDocument();
    expect(screen.getByText('9 SMS today ($45), 24 in all ($120)')).toBeInTheDocument();
    const perDay = screen.getByRole('table', { name: 'Requests per day' });
    expect(within(perDay).getAllByRole('row')[1]).toHaveTextContent(/4 December 2026\s*912/);
    expect(screen.getByRole('link', { name: /1 Dec 2026/ })).toHaveAttribute('href', '/operator/reports/report-0');
  });

  it('suspends the requester only with a note, then shows the suspension, which can be lifted with a note', async () => {
    let suspended = false;
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports/{id}', () =>
      reportDetail(suspended ? { suspended: true, state: 'closed' } : {}),
    );
    fakeApi.on('post', '/api/v1/operator/reports/{id}/suspend', () => {
      suspended = true;
      return { id: 'report-1', state: 'closed', outcome: 'suspended', suspensionId: 'suspension-1' };
    });
    fakeApi.on('post', '/api/v1/operator/suspensions/{id}/lift', () => ({
      suspension: {
        id: 'suspension-1',
        userId: 'user-1',
        displayName: 'Rina Wijaya',
        reportId: 'report-1',
        suspendedAt: '2026-12-04T10:00:00.000Z',
        note: 'Harassing three numbers at night',
        refundOwed: true,
        liftedAt: '2026-12-04T11:00:00.000Z',
        liftNote: 'Appeal accepted',
      },
    }));
    await renderInConsole('/operator/reports/report-1', '/reports/:id', <ReportPage />);

    await userEvent.click(await screen.findByRole('button', { name: 'Suspend the requester' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend the requester?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Write a note (up to 1,000 characters).')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/operator/reports/{id}/suspend')).toHaveLength(0);

    await fill(within(dialog).getByLabelText('Note'), 'Harassing three numbers at night');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/^Suspended since/)).toBeInTheDocument();
    expect(
      fakeApi.calls('post', '/api/v1/operator/reports/{id}/suspend').map((call) => [call.path, call.body]),
    ).toEqual([[{ id: 'report-1' }, { note: 'Harassing three numbers at night' }]]);
    expect(screen.queryByRole('button', { name: 'Suspend the requester' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Lift the suspension' }));
    const lift = await screen.findByRole('dialog', { name: 'Lift the suspension?' });
    await fill(within(lift).getByLabelText('Note'), 'Appeal accepted');
    await userEvent.click(within(lift).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('button', { name: 'Lift the suspension' });
    expect(
      fakeApi.calls('post', '/api/v1/operator/suspensions/{id}/lift').map((call) => [call.path, call.body]),
    ).toEqual([[{ id: 'suspension-1' }, { note: 'Appeal accepted' }]]);
  });

  it('dismisses in Indonesian, and says when the server refused', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports/{id}', reportDetail());
    fakeApi.on('post', '/api/v1/operator/reports/{id}/dismiss', fakeApi.fail(409, 'Laporan ini sudah ditutup.'));
    await renderInConsole('/id/operator/reports/report-1', '/reports/:id', <ReportPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Abaikan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Abaikan laporan ini?' });
    await fill(within(dialog).getByLabelText('Catatan'), 'Salah paham');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Konfirmasi' }));
    expect(await screen.findByText('Tindakan itu gagal: Laporan ini sudah ditutup.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Abaikan laporan ini?' })).toBeInTheDocument();
  });

  it('says when there is no such report', async () => {
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/reports/{id}', fakeApi.fail(404, 'Not Found'));
    await renderInConsole('/operator/reports/nothing', '/reports/:id', <ReportPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('There is nothing here.');
  });
});
