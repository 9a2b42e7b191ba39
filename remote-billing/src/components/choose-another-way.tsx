import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { isApiError } from '@kabari/shared/api/api-error';
import { localGroupOf, type LocalChannel } from '@kabari/shared/payments/local-payment';
import { paymentsNamespace } from '@kabari/shared/payments/payments-namespace';
import { billingNamespace } from '../i18n/billing-namespace';
import { cancelWaitingPayment, type SubscriptionInfo } from '../lib/subscription-api';
import './choose-another-way.css';

/**
 * "Choose another way to pay" beside a waiting QRIS, e-wallet or bank transfer renewal: after a short confirmation
 * that its code or number stops working, the server cancels it, and `onCancelled` gets the subscription as it is now
 * (renewed, when it was paid meanwhile). `onGone`: the server no longer has it waiting (paid, expired), so the caller
 * reads the subscription again.
 */
export function ChooseAnotherWay({
  registerId,
  channel,
  onCancelled,
  onGone,
}: {
  registerId: string;
  channel: LocalChannel;
  onCancelled: (info: SubscriptionInfo) => void;
  onGone?: () => void;
}) {
  const { t } = useTranslation(billingNamespace);
  const { t: say } = useTranslation(paymentsNamespace);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const question = useRef<HTMLParagraphElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  // Focus follows the step: to the question when it opens, back to the button when it is kept.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    if (confirming) question.current?.focus();
    else opener.current?.focus();
  }, [confirming]);

  const step = (next: boolean) => {
    moved.current = true;
    setFailure(null);
    setConfirming(next);
  };

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const info = await cancelWaitingPayment(registerId);
      // The caller usually shows the choices instead; if it stays (paid meanwhile), the question is answered.
      step(false);
      onCancelled(info);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      setFailure(t('waitingPayment.cancelFailed', { reason }));
      if (isApiError(error) && error.status === 404) onGone?.();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="choose-another-way">
      {confirming ? (
        <div role="group" aria-labelledby={questionId} className="choose-another-way__confirm">
          <p id={questionId} ref={question} tabIndex={-1}>
            {t(`waitingPayment.confirm.${localGroupOf(channel)}`, { name: say(`local.channel.${channel}`) })}
          </p>
          <div className="choose-another-way__actions">
            <Button danger type="primary" loading={busy} onClick={() => void confirm()}>
              {t('waitingPayment.confirmYes')}
            </Button>
            <Button onClick={() => step(false)} disabled={busy}>
              {t('waitingPayment.confirmNo')}
            </Button>
          </div>
        </div>
      ) : (
        <Button ref={opener} onClick={() => step(true)}>
          {t('waitingPayment.chooseAnother')}
        </Button>
      )}
      {failure && <Alert type="error" role="alert" showIcon title={failure} className="choose-another-way__error" />}
    </div>
  );
}
