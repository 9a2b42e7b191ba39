import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { FailedMessagesPage } from './failed-messages-page';
import type { FailedMessage } from './failed-messages-api';

const failed = (id: string, overrides: Partial<FailedMessage> = {}): FailedMessage =>
  ({
    id,
    channel: 'email',
    recipient: 'r•••@example.com',
    subject: 'Your Kabari receipt',
    attempts: 8,
    lastError: 'mailbox full',
    createdAt: '2026-12-03T22:00:00.000Z',
    retryable: true,
    ...overrides,
  }) as FailedMessage;

describe('the failed messages', () => {
  afterEach(cleanup);

  it('shows the masked recipient, sends a message again, and never one that carried a request link', async () => {
    let retried = false;
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/failed-messages', () => ({
      messages: [
        ...(retried ? [] : [failed('m-1')]),
        failed('m-2', { channel: 'sms', recipient: '+62 812-•••-•789', subject: null, retryable: false }),
      ],
    }));
    fakeApi.on('post', '/api/v1/operator/failed-messages/{id}/retry', () => {
      retried = true;
      return { id: 'm-1', state: 'queued' as const };
    });
    await renderInConsole('/operator/failed-messages', '/failed-messages', <FailedMessagesPage />);

    const table = await screen.findByRole('table', { name: 'Messages that failed for good' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('r•••@example.com');
    expect(second).toHaveTextContent("Not sent again: it carried a request's link.");
    expect(within(second!).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(within(first!).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Queued again.')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/operator/failed-messages/{id}/retry').map((call) => call.path)).toEqual([
      { id: 'm-1' },
    ]);
    // Loaded again: the message sent again has left the queue.
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Messages that failed for good' })).getAllByRole('row'),
      ).toHaveLength(2),
    );
  });
});
