import type { ApiBody } from '@kabari/shared/api/api-types';

export type RefundRequest = ApiBody<'/api/v1/refunds', 'post'>;

export type CallOutcome = { ok: true } | { ok: false; message: string | null };

/** The server's sentence for a refused call (400, 404, 429…), or null when no answer came. */
function refusal(error: unknown): CallOutcome {
  const status =
    (error as { status?: number } | null)?.status ??
    (error as { response?: { status?: number } } | null)?.response?.status;
  const message = error instanceof Error && status ? error.message : null;
  return { ok: false, message };
}

// The form shows every message itself, so the host's toasts stay quiet; axios loads on the first call.
const quiet = { toastErrors: false, handledStatuses: [400, 401, 404, 409, 429] } as const;

/** POST /api/v1/auth/sendCode, type 2: a refund request. */
export async function sendRefundCode(email: string): Promise<CallOutcome> {
  try {
    const { apiPost } = await import('@kabari/shared/api/api-client');
    await apiPost('/api/v1/auth/sendCode', { email, type: 2 }, quiet);
    return { ok: true };
  } catch (error) {
    return refusal(error);
  }
}

/** POST /api/v1/refunds: cancels the subscription and records the request for the operator. */
export async function requestRefund(request: RefundRequest): Promise<CallOutcome> {
  try {
    const { apiPost } = await import('@kabari/shared/api/api-client');
    await apiPost('/api/v1/refunds', request, quiet);
    return { ok: true };
  } catch (error) {
    return refusal(error);
  }
}
