import { isApiError } from '@kabari/shared/api/api-error';

/** How a console call failed, as the pages tell the operator. */
export type Failure = 'gone' | 'throttled' | 'refused' | 'unreachable';

/**
 * 404 is what every console route answers without a current session (and for an object that does not exist):
 * the page asks the session which it is. 429: too many requests; another answer with a message: refused, in the
 * server's words; none: the server could not be reached.
 */
export function failureOf(error: unknown): Failure {
  if (!isApiError(error) || error.status === undefined) return 'unreachable';
  if (error.status === 404 || error.status === 401) return 'gone';
  if (error.status === 429) return 'throttled';
  return 'refused';
}

/** The server's message of a refused or throttled call (with the wait), in the operator's language. */
export function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
