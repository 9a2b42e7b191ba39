import { formatMoney, toMajor } from '@kabari/rules/money';
import type { Locale } from '@kabari/shared/i18n/locale';

/** An amount in the currency's minor unit (cents, rupiah), as the reader's language writes it. */
export function formatMinor(amountMinor: number, currency: string, locale: Locale): string {
  return formatMoney(toMajor(amountMinor, currency), currency, locale);
}
