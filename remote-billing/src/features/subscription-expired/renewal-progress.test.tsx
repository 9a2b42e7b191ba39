import { screen } from '@testing-library/react';
import { useRegisterPolling, type PollOutcome } from '../../lib/register-query';
import { renderAt } from '../../../../jest/render-with-i18n';
import { RenewalProgress } from './renewal-progress';

jest.mock('../../lib/register-query', () => ({ useRegisterPolling: jest.fn() }));
const polling = jest.mocked(useRegisterPolling);

function settledAs(result: Extract<PollOutcome, { phase: 'settled' }>['result']) {
  polling.mockReturnValue({ phase: 'settled', result } as PollOutcome);
}

describe('RenewalProgress', () => {
  it('says the subscription is active again once the renewal is created', async () => {
    settledAs({ state: 'created' });
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    expect(screen.getByRole('status')).toHaveTextContent('Your subscription is active again.');
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });

  it('says why a payment did not go through, and the subscription stays expired', async () => {
    settledAs({ state: 'sign_failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.' });
    const onRenewed = jest.fn();
    await renderAt('/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The payment did not go through: Your card was declined.');
    expect(onRenewed).not.toHaveBeenCalled();
  });

  it('a second payment for a period renewed meanwhile: active, refunded, never called a failure (in Indonesian)', async () => {
    const refunded =
      'Langganan Anda sudah diperpanjang untuk periode ini, jadi langganan tetap aktif dan pembayaran kedua ini kami kembalikan secara penuh.';
    settledAs({ state: 'sign_failed', failureCode: 'duplicate_payment', failureMessage: refunded });
    const onRenewed = jest.fn();
    await renderAt('/id/dashboard/', <RenewalProgress registerId="r1" onRenewed={onRenewed} />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Langganan Anda sudah aktif.');
    expect(status).toHaveTextContent(refunded);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });
});
