import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { PaymentForm } from '@kabari/shared/payments/payment-form';
import { formatDay } from '@kabari/shared/i18n/format-time';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { useLocation } from '@kabari/shared/routing/router';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { billingNamespace } from '../../i18n/billing-namespace';
import { fetchRenewalTerms, fetchSubscriptionInfo, type SubscriptionInfo } from '../../lib/subscription-api';
import { renewalHandlers } from '../../lib/renewal-handlers';
import { RenewalProgress } from '../../components/renewal-progress';
import { payableWaiting, WaitingPaymentNotice } from '../../components/waiting-payment-notice';

/** The expired state (/dashboard/?s=-1&at=10, and its modal route): it says so and offers renewal. */
export default function SubscriptionExpiredDialog({ open, onClose }: RouteDialogProps) {
  const { t } = useTranslation(billingNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const [info, setInfo] = useState<SubscriptionInfo | null>(null);
  const [terms, setTerms] = useState<PaymentTerms | null>(null);
  const [registerId, setRegisterId] = useState<string | null>(null);
  const [renewed, setRenewed] = useState(false);
  // A waiting payment was cancelled to pay another way: said above the choices, which take the focus.
  const [stopped, setStopped] = useState(false);
  const choices = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (stopped) choices.current?.focus();
  }, [stopped]);

  useEffect(() => {
    fetchSubscriptionInfo().then(setInfo, () => undefined);
    // The subscription's own price and currency: what the renewal charges, whatever the pages show now.
    fetchRenewalTerms().then(setTerms, () => undefined);
  }, []);

  const onRenewed = useCallback(() => setRenewed(true), []);
  // A payment just started is read back, so that once left (another way chosen) it can be shown again.
  const started = (id: string) => {
    setRegisterId(id);
    setStopped(false);
    fetchSubscriptionInfo().then(setInfo, () => undefined);
  };
  // Cancelled: the choices again. Paid meanwhile: renewed (the waiting view's poll says so too).
  const cancelled = (next: SubscriptionInfo) => {
    setInfo(next);
    if (next.expiredStatus === 0) return setRenewed(true);
    setRegisterId(null);
    setStopped(true);
  };
  const reread = () => fetchSubscriptionInfo().then(setInfo, () => undefined);

  const endedOn = formatDay(info?.validUntil, locale);
  // A renewal by QRIS, an e-wallet or a transfer started earlier and closed: its code can be shown again.
  const waiting = payableWaiting(info);

  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('expired.title')}
        onCancel={onClose}
        closable={{ 'aria-label': t('expired.close') }}
        footer={null}
        width={520}
        className="expired-dialog"
      >
        <p>{endedOn ? t('expired.text', { date: endedOn }) : t('expired.textNoDate')}</p>
        {registerId ? (
          <>
            <RenewalProgress registerId={registerId} onRenewed={onRenewed} onCancelled={cancelled} />
            {renewed && (
              <Button type="primary" onClick={onClose} autoFocus>
                {t('expired.close')}
              </Button>
            )}
            {!renewed && (
              <Button type="link" onClick={() => setRegisterId(null)}>
                {t('expired.renewTitle')}
              </Button>
            )}
          </>
        ) : renewed ? (
          <>
            <p role="status">{t('expired.renewed')}</p>
            <Button type="primary" onClick={onClose} autoFocus>
              {t('expired.close')}
            </Button>
          </>
        ) : (
          <section aria-labelledby="expired-renew-title">
            {waiting && (
              <WaitingPaymentNotice
                waiting={waiting}
                locale={locale}
                onShow={() => setRegisterId(waiting.registerId)}
                onCancelled={cancelled}
                onGone={reread}
              />
            )}
            {stopped && <Alert type="success" role="status" showIcon title={t('waitingPayment.cancelled')} />}
            <h3 id="expired-renew-title" ref={choices} tabIndex={-1}>
              {t('expired.renewTitle')}
            </h3>
            {terms ? (
              <PaymentForm
                name="renewal"
                kind="renewal"
                terms={terms}
                locale={locale}
                handlers={renewalHandlers}
                onPaid={started}
              />
            ) : (
              <Spin />
            )}
          </section>
        )}
      </Modal>
    </AntdScope>
  );
}
