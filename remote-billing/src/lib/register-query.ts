import { useEffect, useState } from 'react';
import { apiRawGet } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import type { LocalPayment } from '@kabari/shared/payments/local-payment';

/** GET /api/v1/personnal/registerQuery/{id}, read raw. */
export type RegisterQueryResult = ApiData<'/api/v1/personnal/registerQuery/{id}', 'get'>;

export async function queryRegistration(id: string): Promise<RegisterQueryResult> {
  const response = await apiRawGet('/api/v1/personnal/registerQuery/{id}', {
    path: { id },
    toastErrors: false,
    handledStatuses: [400, 404],
  });
  return response.data.data;
}

export const pollIntervalMs = 1500;
/**
 * While a QRIS, e-wallet or bank transfer payment waits for its payer, who may take minutes (or a day for a bank
 * transfer): asked less often, since nothing happens until the payer has paid in their own app.
 */
export const localPollIntervalMs = 3000;
/**
 * How long a payment may stay "being queried" before the screen says the status could not be had; a local payment
 * that waits for its payer is given that long past its expiry, by when the server has ended it.
 */
export const pollTimeoutMs = 120_000;
/** Failed calls in a row (network, 5xx) before giving up. */
const maxFailuresInARow = 3;

export type PollOutcome =
  | { phase: 'polling'; payment?: LocalPayment }
  | { phase: 'settled'; result: RegisterQueryResult }
  | { phase: 'failed' };

/**
 * Polls a sign-up (or a renewal) until it leaves 'querying'. `attempt` restarts it (the "check again"
 * button). The server's answer is the only source: nothing is assumed.
 */
export function useRegisterPolling(id: string | null, attempt: number): PollOutcome {
  const [outcome, setOutcome] = useState<{ key: string; value: PollOutcome } | null>(null);
  const key = `${id}:${attempt}`;

  useEffect(() => {
    if (!id) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let giveUpAt = Date.now() + pollTimeoutMs;
    let failures = 0;
    let waiting: string | null = null;
    let interval = pollIntervalMs;
    const settle = (value: PollOutcome) => !stopped && setOutcome({ key, value });
    const poll = async () => {
      try {
        const result = await queryRegistration(id);
        failures = 0;
        if (result.state !== 'querying') return settle({ phase: 'settled', result });
        const { payment } = result;
        if (payment) {
          interval = localPollIntervalMs;
          giveUpAt = Math.max(giveUpAt, new Date(payment.expiresAt).getTime() + pollTimeoutMs);
          // Said again only when it changed, so the page does not redraw on every answer.
          const seen = JSON.stringify(payment);
          if (seen !== waiting) {
            waiting = seen;
            settle({ phase: 'polling', payment });
          }
        }
      } catch (error) {
        failures += 1;
        const status = (error as { status?: number }).status;
        // 400/404: no such sign-up; asking again will not change that.
        if (status === 400 || status === 404 || failures >= maxFailuresInARow) return settle({ phase: 'failed' });
      }
      if (Date.now() > giveUpAt) return settle({ phase: 'failed' });
      if (!stopped) timer = setTimeout(() => void poll(), interval);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, key]);

  return outcome?.key === key ? outcome.value : { phase: 'polling' };
}
