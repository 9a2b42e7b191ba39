import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { encryptedForConsole } from '../../lib/console-password';
import { consoleCall } from '../../lib/session-api';

/** What enrolment shows: the account, and the authenticator's new secret (as text and as an otpauth:// URL). */
export type Enrolment = ApiData<'/api/v1/operator/enrolment/begin', 'post'>;

export function beginEnrolment(token: string): Promise<Enrolment> {
  return apiPost('/api/v1/operator/enrolment/begin', { token }, consoleCall);
}

/**
 * Sets the password (as typed: it is encrypted here, a PasswordEncryptionError when it cannot be) and turns the
 * authenticator on; answers the recovery codes (shown once) and signs in.
 */
export async function finishEnrolment(token: string, password: string, code: string): Promise<string[]> {
  const encrypted = await encryptedForConsole(password);
  const body = { token, password: encrypted, code };
  return (await apiPost('/api/v1/operator/enrolment/finish', body, consoleCall)).recoveryCodes;
}
