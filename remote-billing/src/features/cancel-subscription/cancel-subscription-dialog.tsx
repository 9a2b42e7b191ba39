import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { formatDay } from '@kabari/shared/i18n/format-time';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { billingNamespace } from '../../i18n/billing-namespace';
import {
  cancelSubscription,
  fetchSubscriptionInfo,
  type CancelledSubscription,
  type SubscriptionInfo,
} from '../../lib/subscription-api';

/** /dashboard/modules/cancleMySubscriptionModal: the cancel confirmation, saying how long access lasts. */
export default function CancelSubscriptionDialog({ open, onClose }: RouteDialogProps) {
  const { t } = useTranslation(billingNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const navigate = useNavigate();
  const [info, setInfo] = useState<SubscriptionInfo | null>(null);
  const [cancelled, setCancelled] = useState<CancelledSubscription | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const doneText = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    fetchSubscriptionInfo().then(setInfo, () => undefined);
  }, []);
  useEffect(() => {
    if (cancelled) doneText.current?.focus();
  }, [cancelled]);

  const toMySubscription = () => navigate(localizePath(routePaths.mySubscription, locale));

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await cancelSubscription();
      setCancelled(result);
    } catch (error) {
      setFailure(t('cancelDialog.failed', { reason: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };

  const validUntil = formatDay((cancelled ?? info)?.validUntil, locale);

  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('cancelDialog.title')}
        onCancel={onClose}
        closable={{ 'aria-label': t('subscription.close') }}
        footer={null}
        width={460}
      >
        {cancelled ? (
          <>
            <p ref={doneText} tabIndex={-1} role="status" data-testid="cancelled-until">
              {t('cancelDialog.done', { date: validUntil })}
            </p>
            <Button type="primary" onClick={toMySubscription}>
              {t('cancelDialog.backToSubscription')}
            </Button>
          </>
        ) : (
          <>
            <p>{validUntil ? t('cancelDialog.text', { date: validUntil }) : t('cancelDialog.textNoDate')}</p>
            {failure && <Alert type="error" role="alert" showIcon title={failure} />}
            <div
              className="cancel-dialog__actions"
              style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end', marginTop: 16 }}
            >
              <Button onClick={toMySubscription} autoFocus>
                {t('cancelDialog.keep')}
              </Button>
              <Button danger type="primary" loading={busy} onClick={() => void confirm()}>
                {t('cancelDialog.confirm')}
              </Button>
            </div>
          </>
        )}
      </Modal>
    </AntdScope>
  );
}
