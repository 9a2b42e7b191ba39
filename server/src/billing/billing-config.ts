import fs from 'node:fs';
import { z } from 'zod';
import type { Locale } from '../lib/messages';
import type { MidtransSettings, PaypalSettings, StripeSettings } from '../payments/provider-settings';
import { isKnownCurrency, parseMajorAmount } from '@kabari/rules/money';

/**
 * The operator's billing settings, from the environment: prices per locale, the renewal period, the renewal
 * job, and the payment providers. Without provider keys the built-in sandbox processor takes payments in
 * a local trial; in a deployment (PUBLIC_URL) only when PAYMENTS_SANDBOX=true, else payments are not configured.
 */

const text = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const currency = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isKnownCurrency, 'expected an ISO 4217 currency code such as USD or IDR');

const majorAmount = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,3})?$/, 'expected a positive amount in the major unit, such as 29.99 or 449000');

const wholeNumber = (min: number, max: number, what: string) =>
  z.coerce
    .number({ message: `expected ${what} from ${min} to ${max}` })
    .int(`expected ${what} from ${min} to ${max}`)
    .min(min, `expected ${what} from ${min} to ${max}`)
    .max(max, `expected ${what} from ${min} to ${max}`);

/** Spread into the server's environment schema (config.ts). */
export const billingEnvironment = {
  PRICE_EN_CURRENCY: currency.default('USD'),
  PRICE_EN_FIRST_DAY: majorAmount.default('0.99'),
  PRICE_EN_AMOUNT: majorAmount.default('29.99'),
  PRICE_ID_CURRENCY: currency.default('IDR'),
  PRICE_ID_FIRST_DAY: majorAmount.default('14900'),
  PRICE_ID_AMOUNT: majorAmount.default('449000'),
  BILLING_PERIOD_DAYS: wholeNumber(1, 366, 'a whole number of days').default(30),
  RENEWAL_REMINDER_DAYS: wholeNumber(0, 30, 'a whole number of days').default(3),
  // 0: no renewal job in this process (another instance, or a cron calling the dev tool, runs it).
  RENEWAL_INTERVAL_SECONDS: wholeNumber(0, 86_400, 'a whole number of seconds').default(60),
  STRIPE_SECRET_KEY: text.refine(
    (value) => value === undefined || /^(sk|rk)_(test|live)_\w+$/.test(value),
    'expected a Stripe secret key (sk_test_… or sk_live_…)',
  ),
  STRIPE_PUBLISHABLE_KEY: text.refine(
    (value) => value === undefined || /^pk_(test|live)_\w+$/.test(value),
    'expected a Stripe publishable key (pk_test_… or pk_live_…)',
  ),
  STRIPE_WEBHOOK_SECRET: text.refine(
    (value) => value === undefined || /^whsec_\w+$/.test(value),
    'expected a Stripe webhook signing secret (whsec_…)',
  ),
  // Apple Pay's domain file, as Stripe's dashboard (Settings › Payment methods › Apple Pay) gives it for this site.
  APPLE_PAY_DOMAIN_FILE: text,
  PAYPAL_CLIENT_ID: text,
  PAYPAL_CLIENT_SECRET: text,
  PAYPAL_WEBHOOK_ID: text,
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  // Midtrans (Core API): QRIS, e-wallets and bank virtual accounts for a price in rupiah.
  MIDTRANS_SERVER_KEY: text.refine(
    (value) => value === undefined || !/^(SB-)?Mid-client-/.test(value),
    'expected the server key (Mid-server-…), not the client key: Kabari calls Midtrans from the server only',
  ),
  MIDTRANS_ENVIRONMENT: z.enum(['sandbox', 'production']).optional(),
  MIDTRANS_MERCHANT_NAME: text.refine(
    (value) => value === undefined || value.length <= 50,
    'expected the merchant name as Midtrans shows it to payers (at most 50 characters)',
  ),
  // Tests only: the local fake of Midtrans's API (never with PUBLIC_URL).
  MIDTRANS_API_URL: text.refine(
    (value) => value === undefined || /^https?:\/\/[^\s/]+(:\d+)?\/?$/.test(value),
    'expected the base address of a local fake of the Midtrans API, such as http://127.0.0.1:4010',
  ),
  // The sandbox processor: on by default in a local trial only; never beside a real provider.
  PAYMENTS_SANDBOX: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional(),
};

type BillingEnvironment = z.output<z.ZodObject<typeof billingEnvironment>>;

export interface Price {
  currency: string;
  /** Minor units (cents; rupiah has none). */
  firstDayAmount: number;
  amount: number;
}

export interface BillingConfig {
  prices: Record<Locale, Price>;
  periodDays: number;
  reminderDays: number;
  renewalIntervalSeconds: number;
  stripe: StripeSettings | undefined;
  paypal: PaypalSettings | undefined;
  midtrans: MidtransSettings | undefined;
  /** The sandbox processor takes every payment (no real provider is configured, and this is a trial or asked). */
  sandbox: boolean;
  /**
   * Apple Pay's domain association file (its text), served at /.well-known/apple-developer-merchantid-domain-association
   * so that Apple can verify the site for Stripe's wallet; undefined when the operator gave none.
   */
  applePayDomainFile: string | undefined;
}

// The file Apple asks for is a few kilobytes of hex; anything far larger is not it.
const APPLE_PAY_FILE_MAX_BYTES = 64 * 1024;

/** The operator's Apple Pay domain file, read once at start; a path that does not give one stops the server. */
function applePayDomainFile(
  file: string | undefined,
  stripe: boolean,
  fail: (message: string) => Error,
): string | undefined {
  if (file === undefined) return undefined;
  if (!stripe) throw fail('  APPLE_PAY_DOMAIN_FILE: Apple Pay is offered through Stripe: set the STRIPE_* keys too');
  let text: string;
  try {
    if (fs.statSync(file).size > APPLE_PAY_FILE_MAX_BYTES) throw new Error('too large');
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw fail(`  APPLE_PAY_DOMAIN_FILE: cannot read ${file} as Apple Pay's domain file (${(error as Error).message})`);
  }
  if (!text.trim()) throw fail(`  APPLE_PAY_DOMAIN_FILE: ${file} is empty`);
  return text;
}

function price(name: 'EN' | 'ID', e: BillingEnvironment, fail: (message: string) => Error): Price {
  const currencyCode = e[`PRICE_${name}_CURRENCY`];
  const amounts = (['FIRST_DAY', 'AMOUNT'] as const).map((part) => {
    const variable = `PRICE_${name}_${part}`;
    const minor = parseMajorAmount(e[`PRICE_${name}_${part}`], currencyCode);
    if (minor === null) {
      throw fail(`  ${variable}: expected an amount ${currencyCode} can hold (check the number of decimals)`);
    }
    if (minor <= 0) throw fail(`  ${variable}: expected an amount above zero`);
    return minor;
  });
  return { currency: currencyCode, firstDayAmount: amounts[0]!, amount: amounts[1]! };
}

/** All of a provider's variables, or none: a half-configured provider stops the server with the missing names. */
function allOrNone<T extends string>(
  e: Partial<Record<T, string>>,
  names: T[],
  provider: string,
  fail: (message: string) => Error,
): boolean {
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length === names.length) return false;
  if (missing.length > 0) {
    throw fail(missing.map((name) => `  ${name}: required when ${provider} is configured (it is missing)`).join('\n'));
  }
  return true;
}

/**
 * Midtrans: off without its server key; with it, the merchant name payers see beside the QR code is required too,
 * and the environment must match the key (a sandbox key starts SB-). Any Midtrans variable without the key is a
 * half-configured gateway. The fake's address is for tests only: never in a deployment.
 */
function midtransSettings(
  e: BillingEnvironment,
  localTrial: boolean,
  fail: (message: string) => Error,
): MidtransSettings | undefined {
  const problems: string[] = [];
  const key = e.MIDTRANS_SERVER_KEY;
  if (key === undefined) {
    const stray = (['MIDTRANS_ENVIRONMENT', 'MIDTRANS_MERCHANT_NAME', 'MIDTRANS_API_URL'] as const).filter(
      (name) => e[name] !== undefined,
    );
    if (stray.length === 0) return undefined;
    throw fail(`  MIDTRANS_SERVER_KEY: required when ${stray.join(', ')} is set (it is missing)`);
  }
  const environment = e.MIDTRANS_ENVIRONMENT ?? 'sandbox';
  if (e.MIDTRANS_MERCHANT_NAME === undefined) {
    problems.push('  MIDTRANS_MERCHANT_NAME: required when Midtrans is configured (it is missing)');
  }
  if (environment === 'production' && key.startsWith('SB-')) {
    problems.push(
      '  MIDTRANS_ENVIRONMENT: production with a sandbox server key (SB-…): set sandbox, or the production key',
    );
  }
  if (environment === 'sandbox' && !key.startsWith('SB-') && e.MIDTRANS_ENVIRONMENT === undefined) {
    problems.push('  MIDTRANS_ENVIRONMENT: required with a production server key (set production, or use the SB- key)');
  }
  if (e.MIDTRANS_API_URL !== undefined && !localTrial) {
    problems.push(
      '  MIDTRANS_API_URL: points Midtrans at a local fake, for tests only: it cannot be set with PUBLIC_URL',
    );
  }
  if (problems.length > 0) throw fail(problems.join('\n'));
  return {
    serverKey: key,
    environment,
    merchantName: e.MIDTRANS_MERCHANT_NAME!,
    apiUrl: e.MIDTRANS_API_URL?.replace(/\/+$/, ''),
  };
}

/** `localTrial`: no PUBLIC_URL, where the sandbox is the default processor. */
export function billingConfig(
  e: BillingEnvironment,
  localTrial: boolean,
  fail: (message: string) => Error,
): BillingConfig {
  const wrap = (message: string) => fail(`Invalid configuration:\n${message}`);
  const stripe = allOrNone(e, ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'], 'Stripe', wrap);
  const paypal = allOrNone(e, ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'], 'PayPal', wrap);
  const midtrans = midtransSettings(e, localTrial, wrap);
  if ((stripe || paypal || midtrans) && e.PAYMENTS_SANDBOX === true) {
    throw wrap(
      '  PAYMENTS_SANDBOX: the sandbox is never offered beside a real provider (real and pretend payments must ' +
        'not mix): unset PAYMENTS_SANDBOX, or remove the STRIPE_*, PAYPAL_* and MIDTRANS_* keys',
    );
  }
  return {
    sandbox: !stripe && !paypal && !midtrans && (e.PAYMENTS_SANDBOX ?? localTrial),
    midtrans,
    applePayDomainFile: applePayDomainFile(e.APPLE_PAY_DOMAIN_FILE, stripe, wrap),
    prices: { en: price('EN', e, wrap), id: price('ID', e, wrap) },
    periodDays: e.BILLING_PERIOD_DAYS,
    reminderDays: e.RENEWAL_REMINDER_DAYS,
    renewalIntervalSeconds: e.RENEWAL_INTERVAL_SECONDS,
    stripe: stripe
      ? {
          secretKey: e.STRIPE_SECRET_KEY!,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
        }
      : undefined,
    paypal: paypal
      ? {
          clientId: e.PAYPAL_CLIENT_ID!,
          clientSecret: e.PAYPAL_CLIENT_SECRET!,
          webhookId: e.PAYPAL_WEBHOOK_ID!,
          environment: e.PAYPAL_ENVIRONMENT,
        }
      : undefined,
  };
}
