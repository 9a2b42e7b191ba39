import { z } from 'zod';

/**
 * Settings for location requests and SMS delivery, from the environment. Without Twilio's three variables SMS
 * stays in the local outbox (/dev/outbox), as email does without SMTP_URL.
 */

const text = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** Spread into the server's environment schema (config.ts). */
export const requestsEnvironment = {
  TWILIO_ACCOUNT_SID: text.refine(
    (value) => value === undefined || /^AC[0-9a-fA-F]{32}$/.test(value),
    'expected a Twilio account SID (AC followed by 32 hexadecimal digits)',
  ),
  TWILIO_AUTH_TOKEN: text,
  TWILIO_FROM: text.refine(
    (value) => value === undefined || /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32}|[A-Za-z0-9 ]{1,11})$/.test(value),
    'expected an E.164 number (+…), a messaging service SID (MG…) or an alphanumeric sender ID',
  ),
  LINK_EXPIRY_DAYS: z.coerce
    .number({ message: 'expected a whole number of days from 1 to 90' })
    .int('expected a whole number of days from 1 to 90')
    .min(1, 'expected a whole number of days from 1 to 90')
    .max(90, 'expected a whole number of days from 1 to 90')
    .default(7),
};

type RequestsEnvironment = z.output<z.ZodObject<typeof requestsEnvironment>>;

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A number, a messaging service SID (MG…) or an alphanumeric sender ID. */
  from: string;
}

export interface RequestsConfig {
  twilio: TwilioSettings | undefined;
  /** How long a consent link (SMS, email or trackable link) stays open. */
  linkExpiryDays: number;
}

export function requestsConfig(e: RequestsEnvironment, fail: (message: string) => Error): RequestsConfig {
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length > 0 && missing.length < names.length) {
    throw fail(
      `Invalid configuration:\n${missing.map((name) => `  ${name}: required when Twilio is configured (it is missing)`).join('\n')}`,
    );
  }
  return {
    twilio:
      missing.length === 0
        ? { accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, from: e.TWILIO_FROM! }
        : undefined,
    linkExpiryDays: e.LINK_EXPIRY_DAYS,
  };
}
