/**
 * The provider refused a refund for good (a 4xx about this payment: a charge too old to refund, a capture PayPal
 * will not refund): asking again changes nothing, so refunds-owed.ts stops and hands it to the operator. Anything
 * else a refund throws (the network, a timeout, 5xx, 429, a request in progress with the same key, our own
 * credentials) is worth another attempt later.
 */
export class RefundRefused extends Error {
  constructor(
    /** The provider's error code (no personal data), for the operator. */
    readonly code: string,
    readonly status: number | undefined,
  ) {
    super(`the provider refused the refund: ${code}`);
    this.name = 'RefundRefused';
  }
}

/**
 * A provider's 4xx that another attempt may get past: a request timeout, a conflict with the same refund still in
 * progress (the idempotency key), too many requests, and our credentials (fixing the keys makes every refund go).
 */
const RETRIED_CLIENT_ERRORS = new Set([401, 408, 409, 429]);

/** Whether an HTTP status from the provider means the refund will never be made by asking again. */
export function isRefusal(status: number | undefined): status is number {
  return status !== undefined && status >= 400 && status < 500 && !RETRIED_CLIENT_ERRORS.has(status);
}

/** An error code fit to store and mail: the provider's identifier only, never free text. */
export function refusalCode(code: string | undefined, status: number): string {
  const clean = code?.replace(/[^\w.-]/g, '').slice(0, 100);
  return clean || `http_${status}`;
}
