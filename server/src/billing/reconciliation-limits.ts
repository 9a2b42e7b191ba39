const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * When the reconciliation jobs ask a provider about a payment its webhook has not settled (sign-ups and renews
 * after expiry by their registration, scheduled renewals by their payment):
 * - first after `firstCheckAfterMs` (the webhook normally comes within seconds), then every `recheckEveryMs`;
 * - a sign-up the payer has not finished after `abandonedAfterMs` (3-D Secure never completed, a PayPal order
 *   never approved: PayPal lets an unapproved order expire after 3 hours) is abandoned;
 * - a payment the provider still cannot settle after `unknownAfterMs` (still processing, or the provider cannot
 *   be asked) ends the polling; a definite answer arriving later (a webhook) still settles it.
 */
export const RECONCILIATION_LIMITS = {
  firstCheckAfterMs: 5 * MINUTE_MS,
  recheckEveryMs: 5 * MINUTE_MS,
  abandonedAfterMs: 3 * HOUR_MS,
  unknownAfterMs: 24 * HOUR_MS,
} as const;
