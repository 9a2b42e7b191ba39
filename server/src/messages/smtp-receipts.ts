// What an SMTP exchange tells of an email's delivery, as a receipt the requester reads: the receiving server accepted
// it (stored as "delivered": it is in their mail system), or refused it with a permanent (5xx) reply, kept as the
// failed receipt's error code "smtp:<reply code>". Nothing later says whether it was read or filtered.

/** A failed receipt's error code for an SMTP reply code. */
export const smtpErrorCode = (responseCode: number) => `smtp:${responseCode}`;

/** Why an email was refused, in words a requester can act on. */
export type SmtpFailureReason = 'no-mailbox' | 'mail-refused';

/** Whether a failed receipt's error code is an SMTP refusal's. */
export const isSmtpErrorCode = (errorCode: string | null): errorCode is string => !!errorCode?.startsWith('smtp:');

// 550 (mailbox unavailable), 551 (user not local) and 553 (mailbox name not allowed) say the address does not take
// mail: check it. Any other 5xx (552 storage exceeded, 554 rejected as spam or by policy) is the server's refusal.
const NO_MAILBOX = new Set(['550', '551', '553']);

export function smtpFailureReason(errorCode: string): SmtpFailureReason {
  return NO_MAILBOX.has(errorCode.slice('smtp:'.length)) ? 'no-mailbox' : 'mail-refused';
}
