import { toMajor } from '@kabari/rules/money';
import type { Payment } from './payment-rows';

/**
 * A payment as its subscriber sees it (the payments list, the data export): amounts in the currency's major unit,
 * the card's brand and last four at most, never card data.
 */
export function paymentView(row: Payment) {
  return {
    id: row.id,
    kind: row.kind,
    amount: toMajor(row.amount, row.currency),
    currencyCode: row.currency,
    state: row.state,
    ended: endedUnpaid(row),
    refundedAmount: toMajor(row.refundedAmount, row.currency),
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A payment never made that the payer cancelled (to pay another way) or let run out (a QR code or account number
 * unpaid in time): not a refusal, and the list says which. Null for every other payment.
 */
function endedUnpaid(row: Payment): 'cancelled' | 'expired' | null {
  if (row.state !== 'failed') return null;
  if (row.failureCode === 'payment_cancelled') return 'cancelled';
  if (row.failureCode === 'payment_expired') return 'expired';
  return null;
}
