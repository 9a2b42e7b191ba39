import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { formatMoney } from '@kabari/rules/money';
import { formatTime } from '@kabari/shared/i18n/format-time';
import type { Locale } from '@kabari/shared/i18n/locale';
import { localGroupOf } from '@kabari/shared/payments/local-payment';
import { paymentsNamespace } from '@kabari/shared/payments/payments-namespace';
import { billingNamespace } from '../i18n/billing-namespace';
import type { SubscriptionInfo } from '../lib/subscription-api';
import { ChooseAnotherWay } from './choose-another-way';

/** subscribe/info's payment that waits for its payer (a renewal, or the next period paid ahead). */
export type WaitingPayment = NonNullable<SubscriptionInfo['waitingPayment']>;

/** The waiting payment while it can still be paid; null once it has expired (paying it would fail). */
export function payableWaiting(info: SubscriptionInfo | null, now = Date.now()): WaitingPayment | null {
  const waiting = info?.waitingPayment;
  return waiting && new Date(waiting.payment.expiresAt).getTime() > now ? waiting : null;
}

/**
 * A QRIS, e-wallet or bank transfer payment the subscriber started and closed: what it is and until when, the
 * button that shows its code (or number) again, so it can still be paid rather than waited out, and the one that
 * cancels it to pay another way (a wrong bank's account would otherwise hold the renewal for a day).
 */
export function WaitingPaymentNotice({
  waiting,
  locale,
  onShow,
  onCancelled,
  onGone,
}: {
  waiting: WaitingPayment;
  locale: Locale;
  onShow: () => void;
  onCancelled: (info: SubscriptionInfo) => void;
  onGone?: () => void;
}) {
  const { t } = useTranslation(billingNamespace);
  const { t: say } = useTranslation(paymentsNamespace);
  const { payment } = waiting;
  const group = localGroupOf(payment.channel);
  return (
    <Alert
      type="info"
      showIcon
      className="waiting-payment"
      data-testid="waiting-payment"
      title={t('waitingPayment.title')}
      description={
        <>
          <p>
            {t(`waitingPayment.text.${group}`, {
              amount: formatMoney(payment.amount, payment.currencyCode, locale),
              name: say(`local.channel.${payment.channel}`),
              deadline: formatTime(payment.expiresAt, locale),
            })}
          </p>
          <Button type="primary" onClick={onShow}>
            {t(`waitingPayment.show.${group}`)}
          </Button>
          <ChooseAnotherWay
            registerId={waiting.registerId}
            channel={payment.channel}
            onCancelled={onCancelled}
            onGone={onGone}
          />
        </>
      }
    />
  );
}
