import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { TwilioSettings } from '../messages/twilio-sms';
import type { WhatsAppSettings } from '../messages/twilio-whatsapp';

/**
 * Settings for location requests and SMS delivery, from the environment. Without Twilio's three variables SMS
 * stays in the local outbox (/dev/outbox), as email does without SMTP_URL, and so does WhatsApp. The send limits cap what one account,
 * and everyone together, can make the operator pay for in a day (server/README.md lists their defaults).
 */

const text = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const dailyCount = (max: number, fallback: number) => {
  const message = `expected a whole number from 0 to ${max}`;
  return z.coerce.number({ message }).int(message).min(0, message).max(max, message).default(fallback);
};

/** Defaults of the daily send limits (documented in server/README.md and docs/security.md). */
export const SEND_LIMIT_DEFAULTS = {
  smsPerAccountPerDay: 10,
  emailPerAccountPerDay: 20,
  smsDailyBudget: 200,
  smsCountries: ['ID'],
} as const;

const countryList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((code) => code.trim().toUpperCase())
      .filter((code) => code !== ''),
  )
  .refine(
    (codes) => codes.length > 0 && codes.every((code) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code)),
    'expected ISO 3166 alpha-2 country codes separated by commas, e.g. ID or ID,MY,SG',
  );

const whatsAppTemplate = text.refine(
  (value) => value === undefined || /^HX[0-9a-fA-F]{32}$/.test(value),
  "expected an approved template's content SID (HX followed by 32 hexadecimal digits)",
);

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
  // WhatsApp through the same Twilio account: the sender, and the approved template (Content API) of each language.
  TWILIO_WHATSAPP_FROM: text.refine(
    (value) => value === undefined || /^(whatsapp:)?\+[1-9]\d{6,14}$/.test(value),
    'expected a WhatsApp sender: whatsapp:+ and its E.164 number, or the E.164 number (+…)',
  ),
  TWILIO_WHATSAPP_TEMPLATE_EN: whatsAppTemplate,
  TWILIO_WHATSAPP_TEMPLATE_ID: whatsAppTemplate,
  LINK_EXPIRY_DAYS: z.coerce
    .number({ message: 'expected a whole number of days from 1 to 90' })
    .int('expected a whole number of days from 1 to 90')
    .min(1, 'expected a whole number of days from 1 to 90')
    .max(90, 'expected a whole number of days from 1 to 90')
    .default(7),
  // SMS and email requests one account may send per day (UTC), and SMS all accounts together may send.
  SMS_PER_ACCOUNT_PER_DAY: dailyCount(10_000, SEND_LIMIT_DEFAULTS.smsPerAccountPerDay),
  EMAIL_PER_ACCOUNT_PER_DAY: dailyCount(10_000, SEND_LIMIT_DEFAULTS.emailPerAccountPerDay),
  SMS_DAILY_BUDGET: dailyCount(1_000_000, SEND_LIMIT_DEFAULTS.smsDailyBudget),
  // The countries (ISO 3166 alpha-2) whose numbers may get an SMS.
  SMS_COUNTRIES: countryList.default([...SEND_LIMIT_DEFAULTS.smsCountries]),
  // What one SMS costs at the provider, in the currency's minor unit: the operator's console adds up the SMS spent.
  SMS_PRICE_MINOR: z.coerce
    .number({ message: 'expected a whole number of minor units from 0 to 1000000' })
    .int('expected a whole number of minor units from 0 to 1000000')
    .min(0, 'expected a whole number of minor units from 0 to 1000000')
    .max(1_000_000, 'expected a whole number of minor units from 0 to 1000000')
    .optional(),
  // What one WhatsApp message costs at the provider, in SMS_PRICE_CURRENCY's minor unit: counted apart from SMS.
  WHATSAPP_PRICE_MINOR: z.coerce
    .number({ message: 'expected a whole number of minor units from 0 to 1000000' })
    .int('expected a whole number of minor units from 0 to 1000000')
    .min(0, 'expected a whole number of minor units from 0 to 1000000')
    .max(1_000_000, 'expected a whole number of minor units from 0 to 1000000')
    .optional(),
  SMS_PRICE_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 currency code, e.g. USD')
    .default('USD'),
};

type RequestsEnvironment = z.output<z.ZodObject<typeof requestsEnvironment>>;

/** How much a day may cost: 0 turns a channel off for accounts, or SMS off for everyone. */
export interface SendLimitsConfig {
  smsPerAccountPerDay: number;
  emailPerAccountPerDay: number;
  /** SMS all accounts together may send per day (UTC); the operator is emailed when it is used up. */
  smsDailyBudget: number;
  /** ISO 3166 alpha-2 regions whose numbers may get an SMS (the number's region as libphonenumber reads it). */
  smsCountries: string[];
}

export interface RequestsConfig {
  twilio: TwilioSettings | undefined;
  /** WhatsApp through Twilio (TWILIO_WHATSAPP_*); only beside Twilio's SMS settings. */
  whatsapp: WhatsAppSettings | undefined;
  /** How long a consent link (SMS, email or trackable link) stays open. */
  linkExpiryDays: number;
  sendLimits: SendLimitsConfig;
  /** One SMS's price at the provider (SMS_PRICE_MINOR); unset: the console counts SMS without a cost. */
  smsPrice: { minor: number; currency: string } | undefined;
  /** One WhatsApp message's price (WHATSAPP_PRICE_MINOR, in SMS_PRICE_CURRENCY); unset: counted without a cost. */
  whatsappPrice: { minor: number; currency: string } | undefined;
}

/**
 * WhatsApp's sender and one approved template per language, all or none, and only with Twilio's SMS settings: the
 * same account sends it, and a message WhatsApp cannot take falls back to an SMS.
 */
function whatsAppConfig(
  e: RequestsEnvironment,
  twilio: boolean,
  fail: (message: string) => Error,
): WhatsAppSettings | undefined {
  const names = ['TWILIO_WHATSAPP_FROM', 'TWILIO_WHATSAPP_TEMPLATE_EN', 'TWILIO_WHATSAPP_TEMPLATE_ID'] as const;
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length === names.length) return undefined;
  const problems = missing.map((name) => `  ${name}: required when WhatsApp is configured (it is missing)`);
  if (!twilio) {
    problems.push('  TWILIO_WHATSAPP_FROM: WhatsApp needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM too');
  }
  if (problems.length > 0) throw fail(`Invalid configuration:\n${problems.join('\n')}`);
  const from = e.TWILIO_WHATSAPP_FROM!;
  return {
    from: from.startsWith('whatsapp:') ? from : `whatsapp:${from}`,
    templates: { en: e.TWILIO_WHATSAPP_TEMPLATE_EN!, id: e.TWILIO_WHATSAPP_TEMPLATE_ID! },
  };
}

export function requestsConfig(e: RequestsEnvironment, fail: (message: string) => Error): RequestsConfig {
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length > 0 && missing.length < names.length) {
    throw fail(
      `Invalid configuration:\n${missing.map((name) => `  ${name}: required when Twilio is configured (it is missing)`).join('\n')}`,
    );
  }
  const twilio =
    missing.length === 0
      ? { accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, from: e.TWILIO_FROM! }
      : undefined;
  return {
    twilio,
    whatsapp: whatsAppConfig(e, twilio !== undefined, fail),
    linkExpiryDays: e.LINK_EXPIRY_DAYS,
    sendLimits: {
      smsPerAccountPerDay: e.SMS_PER_ACCOUNT_PER_DAY,
      emailPerAccountPerDay: e.EMAIL_PER_ACCOUNT_PER_DAY,
      smsDailyBudget: e.SMS_DAILY_BUDGET,
      smsCountries: [...new Set(e.SMS_COUNTRIES)],
    },
    smsPrice:
      e.SMS_PRICE_MINOR === undefined ? undefined : { minor: e.SMS_PRICE_MINOR, currency: e.SMS_PRICE_CURRENCY },
    whatsappPrice:
      e.WHATSAPP_PRICE_MINOR === undefined
        ? undefined
        : { minor: e.WHATSAPP_PRICE_MINOR, currency: e.SMS_PRICE_CURRENCY },
  };
}
