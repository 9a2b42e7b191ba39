import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import type { Locale } from '@kabari/shared/i18n/locale';
import { PaymentForm } from '@kabari/shared/payments/payment-form';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { billingNamespace } from '../../i18n/billing-namespace';
import { RenewalProgress } from '../../components/renewal-progress';
import { renewalHandlers } from '../../lib/renewal-handlers';
import { fetchRenewalTerms, type SubscriptionInfo } from '../../lib/subscription-api';

interface PayAheadDialogProps {
  open: boolean;
  info: SubscriptionInfo;
  locale: Locale;
  /** The payment that waits for its payer, kept by the caller so that reopening the dialog shows it again. */
  registerId: string | null;
  onStarted: (registerId: string | null) => void;
  onPaid: () => void;
  /** The waiting payment was cancelled to pay another way: the subscription as the server says it is now. */
  onCancelled: (info: SubscriptionInfo) => void;
  /** A waiting payment was just cancelled: said above the choices. */
  stopped: boolean;
  onClose: () => void;
}

/**
 * Paying for the period after the current one, for a subscription that renews only when paid: the renewal's terms,
 * with only QRIS, e-wallets and bank transfers (the server takes nothing else before the period ends), then the
 * waiting view until the payment is confirmed.
 */
export default function PayAheadDialog({
  open,
  info,
  locale,
  registerId,
  onStarted,
  onPaid,
  onCancelled,
  stopped,
  onClose,
}: PayAheadDialogProps) {
  const { t } = useTranslation(billingNamespace);
  const [terms, setTerms] = useState<PaymentTerms | null>(null);
  const [failed, setFailed] = useState(false);
  const [paid, setPaid] = useState(false);

  const load = useCallback(() => {
    fetchRenewalTerms().then(
      (loaded) => setTerms({ ...loaded, methods: { ...loaded.methods, card: null, wallet: null, paypal: null } }),
      () => setFailed(true),
    );
  }, []);
  useEffect(() => load(), [load]);
  const retry = () => {
    setFailed(false);
    load();
  };

  const settled = useCallback(() => {
    setPaid(true);
    onPaid();
  }, [onPaid]);

  const form = terms ? (
    <>
      {stopped && (
        <Alert
          type="success"
          role="status"
          showIcon
          title={t('waitingPayment.cancelled')}
          className="pay-ahead__stopped"
        />
      )}
      <PaymentForm
        name="pay-ahead"
        kind="payAhead"
        nextPeriodStart={info.validUntil}
        terms={terms}
        locale={locale}
        handlers={renewalHandlers}
        onPaid={onStarted}
      />
    </>
  ) : failed ? (
    <Alert
      type="error"
      role="alert"
      title={t('payAhead.termsFailed')}
      action={<Button onClick={retry}>{t('payAhead.retry')}</Button>}
    />
  ) : (
    <Spin description={t('payAhead.loading')}>
      <div className="my-subscription__loading" />
    </Spin>
  );

  return (
    <Modal
      open={open}
      title={t('payAhead.title')}
      onCancel={onClose}
      closable={{ 'aria-label': t('payAhead.close') }}
      footer={null}
      width={520}
      className="my-subscription pay-ahead"
    >
      {registerId ? (
        <>
          <RenewalProgress
            registerId={registerId}
            onRenewed={settled}
            onCancelled={onCancelled}
            onBack={() => onStarted(null)}
            payAhead
          />
          {paid && (
            <Button type="primary" onClick={onClose} autoFocus className="pay-ahead__close">
              {t('payAhead.done')}
            </Button>
          )}
        </>
      ) : (
        form
      )}
    </Modal>
  );
}
