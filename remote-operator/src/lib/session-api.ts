import { apiDelete, apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';
import { encryptedForConsole } from './console-password';

/** The signed-in operator and when the session ends (at the latest, and if left idle). */
export type OperatorSession = ApiData<'/api/v1/operator/session', 'get'>;
/** What signing in answers: the operator and the session's absolute end. */
export type SignedIn = ApiData<'/api/v1/operator/session', 'post'>;

// Every console call handles its own refusals: the host's rules for a subscriber's session (401 ends it, 403 opens
// the subscription page) are not the console's, and the console shows its messages on the page, not as toasts.
export const consoleCall = { toastErrors: false, handledStatuses: [400, 401, 403, 404, 409, 422, 429] } as const;

/** The session, or a 404 (no session: the console's routes do not exist for anyone else). */
export function fetchSession(): Promise<OperatorSession> {
  return apiGet('/api/v1/operator/session', consoleCall);
}

/** Signs in with the password as typed: it is encrypted here (a PasswordEncryptionError when it cannot be). */
export async function signIn(credentials: ApiBody<'/api/v1/operator/session', 'post'>): Promise<SignedIn> {
  const password = await encryptedForConsole(credentials.password);
  return apiPost('/api/v1/operator/session', { ...credentials, password }, consoleCall);
}

export async function signOut(): Promise<void> {
  await apiDelete('/api/v1/operator/session', consoleCall);
}
