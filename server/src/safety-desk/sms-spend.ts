import type { Database } from '../db/open-database';
import { nextSendDay, sendDay, SMS_BUDGET_KEY } from '../requests/daily-send-counts';
import { parseNumber } from '../requests/number-facts';
import type { SendLimitsConfig } from '../requests/requests-config';
import type { SmsPrice } from './reports';
import { accountSmsCounts, dailyCountOf, numberRequestsBetween } from './sms-spend-rows';

// Today's SMS and WhatsApp spend against the caps the send limits already hold (requests/requests-config.ts):
// everyone's daily budget, each account's daily limit, and the countries SMS may go to. A WhatsApp message counts
// in those caps as an SMS does, but is priced at its own price (WHATSAPP_PRICE_MINOR) and shown apart.

const ACCOUNT_PREFIX = 'sms:account:';

/** The price of a day's SMS and WhatsApp messages; null when a count has no price set. */
function costOf(prices: { sms: SmsPrice; whatsapp: SmsPrice }, sms: number, whatsApp: number): number | null {
  if ((sms > 0 && !prices.sms) || (whatsApp > 0 && !prices.whatsapp)) return null;
  if (!prices.sms && !prices.whatsapp) return null;
  return sms * (prices.sms?.minor ?? 0) + whatsApp * (prices.whatsapp?.minor ?? 0);
}

/**
 * Today's (UTC) messages to numbers: everyone's count against the budget, SMS and WhatsApp apart, per country of the
 * numbers, per account.
 */
export async function smsSpendToday(
  db: Database,
  limits: SendLimitsConfig,
  prices: { sms: SmsPrice; whatsapp: SmsPrice },
  now = new Date(),
) {
  const day = sendDay(now);
  const start = new Date(`${day}T00:00:00.000Z`);
  const [sent, accounts, requests] = await Promise.all([
    dailyCountOf(db, SMS_BUDGET_KEY, day),
    accountSmsCounts(db, day, 200),
    numberRequestsBetween(db, start, nextSendDay(now)),
  ]);
  const perCountry = new Map<string, { sms: number; whatsApp: number }>();
  const whatsAppPerAccount = new Map<string, number>();
  let whatsAppTotal = 0;
  for (const request of requests) {
    const parsed = parseNumber(request.target ?? undefined);
    const country = (parsed.kind === 'parsed' && parsed.phone.country) || 'unknown';
    const counts = perCountry.get(country) ?? { sms: 0, whatsApp: 0 };
    if (request.byWhatsApp) {
      counts.whatsApp += 1;
      whatsAppTotal += 1;
      whatsAppPerAccount.set(request.userId, (whatsAppPerAccount.get(request.userId) ?? 0) + 1);
      // A number without WhatsApp got the SMS instead: both were sent.
      if (request.fallback === 'sms') counts.sms += 1;
    } else {
      counts.sms += 1;
    }
    perCountry.set(country, counts);
  }
  // The budget counts every SMS and WhatsApp message of the day (confirmations, SMS sent instead, requests whose
  // record was deleted since): what is not a WhatsApp request still stored is an SMS.
  const smsTotal = Math.max(0, sent - whatsAppTotal);
  return {
    day,
    currency: prices.sms?.currency ?? prices.whatsapp?.currency ?? null,
    caps: {
      dailyBudget: limits.smsDailyBudget,
      perAccountPerDay: limits.smsPerAccountPerDay,
      countries: limits.smsCountries,
    },
    total: {
      count: sent,
      spentMinor: costOf(prices, smsTotal, whatsAppTotal),
      capMinor: prices.sms ? limits.smsDailyBudget * prices.sms.minor : null,
    },
    sms: { count: smsTotal, spentMinor: costOf(prices, smsTotal, 0) },
    whatsapp: { count: whatsAppTotal, spentMinor: costOf(prices, 0, whatsAppTotal) },
    perCountry: [...perCountry.entries()]
      .map(([country, counts]) => ({ country, ...counts, count: counts.sms + counts.whatsApp }))
      .sort((a, b) => b.count - a.count)
      .map(({ country, count, sms, whatsApp }) => ({
        country,
        count,
        whatsappCount: whatsApp,
        spentMinor: costOf(prices, sms, whatsApp),
        allowed: limits.smsCountries.includes(country),
      })),
    perAccount: accounts.map((row) => {
      const userId = row.key.slice(ACCOUNT_PREFIX.length);
      const whatsApp = Math.min(row.count, whatsAppPerAccount.get(userId) ?? 0);
      return {
        userId,
        displayName: row.displayName,
        count: row.count,
        whatsappCount: whatsApp,
        spentMinor: costOf(prices, row.count - whatsApp, whatsApp),
        cap: limits.smsPerAccountPerDay,
      };
    }),
  };
}
