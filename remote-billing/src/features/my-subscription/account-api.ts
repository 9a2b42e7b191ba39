import { apiGet, apiPost, apiRawGet } from '@kabari/shared/api/api-client';
import { encryptPassword } from '@kabari/shared/account/password-encryption';
import type { ApiData } from '@kabari/shared/api/api-types';

/** A signed-in device of the account's (GET /api/v1/personnal/sessions). */
export type AccountSession = ApiData<'/api/v1/personnal/sessions', 'get'>['items'][number];

// Every form here shows the server's sentence itself, next to the form.
const quiet = { toastErrors: false } as const;

export function updateDisplayName(displayName: string) {
  return apiPost('/api/v1/personnal/account/profile', { displayName }, quiet);
}

/** Step one of a change of email: the password; a code goes to the new address, nothing changes yet. */
export async function requestEmailChange(newEmail: string, password: string) {
  return apiPost('/api/v1/personnal/account/email', { newEmail, password: await encryptPassword(password) }, quiet);
}

/** Step two: the code that reached the new address makes the change. */
export function confirmEmailChange(newEmail: string, verificationCode: string) {
  return apiPost('/api/v1/personnal/account/email/confirm', { newEmail, verificationCode }, quiet);
}

export async function changePassword(password: string, newPassword: string) {
  const [current, next] = await Promise.all([encryptPassword(password), encryptPassword(newPassword)]);
  return apiPost('/api/v1/personnal/account/password', { password: current, newPassword: next }, quiet);
}

export async function fetchSessions(): Promise<AccountSession[]> {
  return (await apiGet('/api/v1/personnal/sessions', quiet)).items;
}

export function revokeSession(id: string) {
  return apiPost('/api/v1/personnal/sessions/{id}/revoke', undefined, { ...quiet, path: { id } });
}

/** Send-code type 3: account deletion. */
export function sendDeletionCode(email: string) {
  return apiPost('/api/v1/auth/sendCode', { email, type: 3 }, quiet);
}

export async function deleteAccount(confirmation: { password: string } | { verificationCode: string }) {
  const body = 'password' in confirmation ? { password: await encryptPassword(confirmation.password) } : confirmation;
  return apiPost('/api/v1/personnal/account/delete', body, quiet);
}

/** GET account/export: the server's ZIP attachment, saved by the browser under the server's file name. */
export async function downloadMyData(): Promise<void> {
  const response = await apiRawGet('/api/v1/personnal/account/export', { responseType: 'blob', toastErrors: false });
  const disposition = String(response.headers['content-disposition'] ?? '');
  const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'kabari-my-data.zip';
  const blob = response.data as unknown as Blob;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Which emails and notifications tell the subscriber what a recipient did (shared, declined, stopped, withdrew). */
export type NoticeSettings = ApiData<'/api/v1/personnal/account/notices', 'get'>;
export type RequesterNotice = keyof NoticeSettings['email'];
export type NoticeChannel = keyof NoticeSettings;

export function fetchNoticeSettings(): Promise<NoticeSettings> {
  return apiGet('/api/v1/personnal/account/notices', quiet);
}

export function setNotice(channel: NoticeChannel, notice: RequesterNotice, on: boolean): Promise<NoticeSettings> {
  return apiPost('/api/v1/personnal/account/notices', { [channel]: { [notice]: on } }, quiet);
}

export function fetchPushKey() {
  return apiGet('/api/v1/push/key', quiet);
}

/** This browser's push subscription (PushSubscription.toJSON()), for the signed-in account. */
export function savePushSubscription(subscription: PushSubscriptionJSON) {
  const { endpoint = '', keys = {} } = subscription;
  return apiPost(
    '/api/v1/push/subscriptions',
    { endpoint, keys: { p256dh: keys.p256dh ?? '', auth: keys.auth ?? '' } },
    quiet,
  );
}

export function removePushSubscription(endpoint: string) {
  return apiPost('/api/v1/push/subscriptions/remove', { endpoint }, quiet);
}

export function sendTestPush() {
  return apiPost('/api/v1/push/test', undefined, quiet);
}
