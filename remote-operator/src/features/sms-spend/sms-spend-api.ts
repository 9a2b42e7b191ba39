import { apiGet } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

/** Today's SMS spend against the caps, per country and per account. */
export type SmsSpend = ApiData<'/api/v1/operator/sms-spend', 'get'>;

export function fetchSmsSpend(): Promise<SmsSpend> {
  return apiGet('/api/v1/operator/sms-spend', consoleCall);
}
