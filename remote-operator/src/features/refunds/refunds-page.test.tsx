import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fill } from '../../testing/fill';
import { fakeApi } from '../../../../jest/fake-api';
import { operatorSession, renderInConsole } from '../../testing/render-in-console';
import { RefundsPage } from './refunds-page';
import type { RefundOwed } from './refunds-api';

const owed = (id: string, overrides: Partial<RefundOwed>): RefundOwed =>
  ({
    id,
    source: 'suspension',
    email: 'rina@example.com',
    amountMinor: 999,
    currency: 'USD',
    provider: 'stripe',
    createdAt: '2026-12-04T10:00:00.000Z',
    state: 'owed',
    canRefund: true,
    detail: null,
    ...overrides,
  }) as RefundOwed;

describe('the refunds owed', () => {
  afterEach(cleanup);

  it('refunds through the processor where it can, and marks one refunded elsewhere with its reference', async () => {
    let refunded = false;
    fakeApi.on('get', '/api/v1/operator/session', operatorSession());
    fakeApi.on('get', '/api/v1/operator/refunds-owed', () => ({
      refunds: [
        ...(refunded ? [] : [owed('pay-1', {})]),
        owed('form-1', {
          source: 'refund_form',
          provider: null,
          canRefund: false,
          amountMinor: 449000,
          currency: 'IDR',
        }),
      ],
    }));
    fakeApi.on('post', '/api/v1/operator/refunds-owed/{id}/refund', () => {
      refunded = true;
      return { id: 'pay-1', refunded: true as const };
    });
    fakeApi.on('post', '/api/v1/operator/refunds-owed/{id}/mark-refunded', { id: 'form-1', refunded: true });
    await renderInConsole('/operator/refunds', '/refunds', <RefundsPage />);

    const table = await screen.findByRole('table', { name: 'Refunds owed' });
    const [, stripeRow, formRow] = within(table).getAllByRole('row');
    expect(stripeRow).toHaveTextContent('Suspension');
    expect(stripeRow).toHaveTextContent('$9.99');
    expect(formRow).toHaveTextContent('Refund form');
    expect(formRow).toHaveTextContent('IDR 449,000');
    expect(within(formRow!).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();

    await userEvent.click(within(stripeRow!).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $9.99 through stripe?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Refunded.');
    expect(
      fakeApi.calls('post', '/api/v1/operator/refunds-owed/{id}/refund').map((call) => [call.path, call.body]),
    ).toEqual([[{ id: 'pay-1' }, { note: '' }]]);

    const row = (await screen.findAllByRole('row')).find((candidate) => candidate.textContent?.includes('Refund form'));
    await userEvent.click(within(row!).getByRole('button', { name: 'Mark refunded' }));
    const mark = await screen.findByRole('dialog', { name: /^Mark .* as refunded\?$/ });
    await userEvent.click(within(mark).getByRole('button', { name: 'Confirm' }));
    expect(await within(mark).findByText("Give the refund's reference.")).toBeInTheDocument();
    await fill(within(mark).getByLabelText('Reference'), 'BCA-2026-12-04-17');
    await userEvent.click(within(mark).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Marked as refunded.');
    expect(fakeApi.calls('post', '/api/v1/operator/refunds-owed/{id}/mark-refunded').map((call) => call.body)).toEqual([
      { reference: 'BCA-2026-12-04-17', note: '' },
    ]);
  });
});
