import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fill } from '../../testing/fill';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { ContactMessagesPage } from './contact-messages-page';
import type { ContactMessage } from './contact-messages-api';

const message = (overrides: Partial<ContactMessage> = {}): ContactMessage =>
  ({
    id: 'contact-1',
    createdAt: '2026-12-04T08:00:00.000Z',
    name: 'Budi',
    email: 'budi@example.com',
    topic: 'billing',
    message: 'I was charged twice.',
    locale: 'id',
    readAt: null,
    answeredAt: null,
    answerNote: null,
    ...overrides,
  }) as ContactMessage;

describe('the contact messages', () => {
  afterEach(cleanup);

  it('lists the open messages, marks one read, then answered with a note, and shows the answered ones', async () => {
    let current = message();
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/contact-messages', (_body, call) => ({
      messages: (call.query.state === 'answered') === Boolean(current.answeredAt) ? [current] : [],
    }));
    fakeApi.on('post', '/api/v1/operator/contact-messages/{id}/read', () => {
      current = message({ readAt: '2026-12-04T09:00:00.000Z' });
      return { message: current };
    });
    fakeApi.on('post', '/api/v1/operator/contact-messages/{id}/answered', () => {
      current = message({ readAt: '2026-12-04T09:00:00.000Z', answeredAt: '2026-12-04T09:05:00.000Z' });
      return { message: current };
    });
    await renderInConsole('/operator/contact-messages', '/contact-messages', <ContactMessagesPage />);

    expect(await screen.findByText('I was charged twice.')).toBeInTheDocument();
    expect(screen.getByText('Unread')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark read' }));
    expect(await screen.findByText('Read')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Mark answered' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark this message answered?' });
    await fill(within(dialog).getByLabelText('Note (optional)'), 'Refunded the second charge');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('No messages here.')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/operator/contact-messages/{id}/answered').map((call) => call.body)).toEqual([
      { note: 'Refunded the second charge' },
    ]);

    await userEvent.click(screen.getByRole('radio', { name: 'Answered' }));
    expect(await screen.findByText('I was charged twice.')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/operator/contact-messages').map((call) => call.query.state)).toEqual([
      'open',
      'open',
      'open',
      'answered',
    ]);
  });
});
