import type { Database } from '../db/open-database';
import { nextSendDay, sendDay, SMS_BUDGET_KEY } from '../requests/daily-send-counts';
import { parseNumber } from '../requests/number-facts';
import type { SendLimitsConfig } from '../requests/requests-config';
import type { SmsPrice } from './reports';
import { accountSmsCounts, dailyCountOf, smsTargetsBetween } from './sms-spend-rows';

// Today's SMS spend against the caps the send limits already hold (requests/requests-config.ts): everyone's daily
// budget, each account's daily limit, and the countries SMS may go to.

const ACCOUNT_PREFIX = 'sms:account:';

/** Today's (UTC) SMS: everyone's count against the budget, per country of the numbers, per account. */
export async function smsSpendToday(db: Database, limits: SendLimitsConfig, price: SmsPrice, now = new Date()) {
  const day = sendDay(now);
  const start = new Date(`${day}T00:00:00.000Z`);
  const [sent, accounts, targets] = await Promise.all([
    dailyCountOf(db, SMS_BUDGET_KEY, day),
    accountSmsCounts(db, day, 200),
    smsTargetsBetween(db, start, nextSendDay(now)),
  ]);
  const spent = (count: number) => (price ? count * price.minor : null);
  const perCountry = new Map<string, number>();
  for (const target of targets) {
    const parsed = parseNumber(target ?? undefined);
    const country = (parsed.kind === 'parsed' && parsed.phone.country) || 'unknown';
    perCountry.set(country, (perCountry.get(country) ?? 0) + 1);
  }
  return {
    day,
    currency: price?.currency ?? null,
    caps: {
      dailyBudget: limits.smsDailyBudget,
      perAccountPerDay: limits.smsPerAccountPerDay,
      countries: limits.smsCountries,
    },
    total: { count: sent, spentMinor: spent(sent), capMinor: price ? limits.smsDailyBudget * price.minor : null },
    perCountry: [...perCountry.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([country, count]) => ({
        country,
        count,
        spentMinor: spent(count),
        allowed: limits.smsCountries.includes(country),
      })),
    perAccount: accounts.map((row) => ({
      userId: row.key.slice(ACCOUNT_PREFIX.length),
      displayName: row.displayName,
      count: row.count,
      spentMinor: spent(row.count),
      cap: limits.smsPerAccountPerDay,
    })),
  };
}
