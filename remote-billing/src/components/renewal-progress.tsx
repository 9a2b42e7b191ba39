import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Spin from 'antd/es/spin';
import { billingNamespace } from '../i18n/billing-namespace';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation } from '@kabari/shared/routing/router';
import { useRegisterPolling } from '../lib/register-query';
import type { SubscriptionInfo } from '../lib/subscription-api';
import { ChooseAnotherWay } from './choose-another-way';

// QRIS, e-wallet and bank transfer renewals only: the QR library and the view load when one waits.
const LocalPaymentView = lazy(() => import('@kabari/shared/payments/local-payment-view'));

/**
 * Polls the renewal's registerId and says how it ended; an active subscription again closes the expired state.
 * A payment the server found to be a second one for the same period (renewed meanwhile, by a late renewal charge
 * or another attempt) left the subscription active and is being refunded: said as such, not as a failure.
 * `payAhead`: the payment was for the period after the running one, so success means that period is paid.
 * `onCancelled`: while a QRIS, e-wallet or bank transfer payment waits, it can be cancelled to pay another way; the
 * caller gets the subscription as it is then. `onBack`: once the attempt has ended unpaid, a way back to the payment
 * choices (not while one waits: the server refuses a second payment for the period until it is cancelled).
 */
export function RenewalProgress({
  registerId,
  onRenewed,
  onCancelled,
  onBack,
  payAhead = false,
}: {
  registerId: string;
  onRenewed: () => void;
  onCancelled?: (info: SubscriptionInfo) => void;
  onBack?: () => void;
  payAhead?: boolean;
}) {
  const { t } = useTranslation(billingNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const poll = useRegisterPolling(registerId, 0);
  const settled = poll.phase === 'settled' ? poll.result : null;
  const paidTwice = settled?.state === 'sign_failed' && settled.failureCode === 'duplicate_payment';
  const active = settled?.state === 'created' || paidTwice;
  useEffect(() => {
    if (active) onRenewed();
  }, [active, onRenewed]);
  if (poll.phase === 'polling' && poll.payment) {
    return (
      <>
        <Suspense fallback={<Spin />}>
          <LocalPaymentView payment={poll.payment} registerId={registerId} locale={locale} />
        </Suspense>
        {onCancelled && (
          <ChooseAnotherWay registerId={registerId} channel={poll.payment.channel} onCancelled={onCancelled} />
        )}
      </>
    );
  }
  if (poll.phase === 'polling') {
    return (
      <div role="status" aria-live="polite" className="expired-dialog__progress">
        <Spin /> <span>{t('expired.renewing')}</span>
      </div>
    );
  }
  if (paidTwice) {
    return (
      <Alert
        type="info"
        role="status"
        showIcon
        title={t(payAhead ? 'payAhead.paid' : 'expired.alreadyActive')}
        description={settled.failureMessage ?? undefined}
      />
    );
  }
  if (active) return <p role="status">{t(payAhead ? 'payAhead.paid' : 'expired.renewed')}</p>;
  const reason = settled ? (settled.failureMessage ?? settled.failureCode) : undefined;
  return (
    <>
      <Alert
        type="error"
        role="alert"
        showIcon
        title={reason ? t('expired.renewFailed', { reason }) : t('expired.renewUnknown')}
      />
      {onBack && (
        <Button type="link" onClick={onBack}>
          {t('payAhead.back')}
        </Button>
      )}
    </>
  );
}
