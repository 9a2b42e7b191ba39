/**
 * What a failed API call rejects with, once the host's interceptors have dealt with it (toast,
 * redirect). `status` is the envelope's status (it mirrors HTTP), absent when no answer came.
 */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly data: unknown;

  constructor(message: string, status?: number, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
