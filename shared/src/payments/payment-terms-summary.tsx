import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { formatDay } from '../i18n/format-time';
import { formatMoney } from '@kabari/rules/money';
import type { PaymentTerms } from './payment-terms';
import { paymentsNamespace } from './payments-namespace';

/**
 * A new subscriber's first day (the trial charge), an expired subscriber paying for a period again, or a subscriber
 * whose subscription renews only when paid paying for the period that follows the current one.
 */
export type PaymentKind = 'signUp' | 'renewal' | 'payAhead';

/** The terms in plain words before any payment: today's charge, then the renewals, and how to cancel. */
export function PaymentTermsSummary({
  terms,
  locale,
  kind,
  nextPeriodStart,
  paysEachPeriod = false,
}: {
  terms: PaymentTerms;
  locale: Locale;
  kind: PaymentKind;
  /** payAhead: when the paid period starts (the current one's end). */
  nextPeriodStart?: string;
  /** Paid with QRIS, an e-wallet or a transfer, which Kabari cannot charge again: its owner pays each period. */
  paysEachPeriod?: boolean;
}) {
  const { t } = useTranslation(paymentsNamespace);
  const money = (amount: number) => formatMoney(amount, terms.currencyCode, locale);
  // A date in a sentence stays on one line ("7 December 2026", not "7" at a line's end and the month on the next).
  const day = (iso: string | null | undefined) => formatDay(iso, locale).replace(/ /g, '\u00a0');
  // After today: what a card renews by itself, or, for a method Kabari cannot charge again, what its owner pays.
  const eachPeriod = paysEachPeriod ? (
    <p>{t('summary.localThen', { amount: money(terms.amount), period: terms.period })}</p>
  ) : undefined;
  if (kind === 'payAhead') {
    return (
      <section className="payment-form__summary" aria-labelledby="payment-summary-title">
        <h3 id="payment-summary-title">{t('summary.title')}</h3>
        <p>
          {t('summary.aheadToday', {
            amount: money(terms.amount),
            period: terms.period,
            date: day(nextPeriodStart),
          })}
        </p>
        <p>{t('summary.aheadThen')}</p>
        <p className="payment-form__total">
          <span>{t('summary.total')}</span> <strong>{money(terms.amount)}</strong>
        </p>
      </section>
    );
  }
  if (kind === 'renewal') {
    return (
      <section className="payment-form__summary" aria-labelledby="payment-summary-title">
        <h3 id="payment-summary-title">{t('summary.title')}</h3>
        <p>{t('summary.renewToday', { amount: money(terms.amount), period: terms.period })}</p>
        {eachPeriod ?? <p>{t('summary.renewThen', { amount: money(terms.amount), period: terms.period })}</p>}
        <p>{t('summary.cancel')}</p>
        <p className="payment-form__total">
          <span>{t('summary.total')}</span> <strong>{money(terms.amount)}</strong>
        </p>
      </section>
    );
  }
  return (
    <section className="payment-form__summary" aria-labelledby="payment-summary-title">
      <h3 id="payment-summary-title">{t('summary.title')}</h3>
      <p>{t('summary.today', { first: money(terms.firstDayDebitAmount) })}</p>
      {eachPeriod ?? (
        <p>
          {t('summary.then', {
            date: day(terms.nextDebitDay),
            amount: money(terms.amount),
            period: terms.period,
          })}
        </p>
      )}
      <p>{t('summary.cancel')}</p>
      <p className="payment-form__total">
        <span>{t('summary.total')}</span> <strong>{money(terms.firstDayDebitAmount)}</strong>
      </p>
    </section>
  );
}
