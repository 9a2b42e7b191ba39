import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { isPasswordPending, markPasswordPending } from '@kabari/shared/account/password-pending';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { billingNamespace } from '../../i18n/billing-namespace';
import './success-modal.css';

const nextKeys = ['ask', 'consent', 'manage'] as const;

/** /dashboard/modules/SuccessModal: the welcome after sign-up, what to do next, and a password if none was chosen. */
export default function SuccessModal({ open, onClose }: RouteDialogProps) {
  const { t } = useTranslation(billingNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const navigate = useNavigate();
  const name = useUserStore((state) => state.user?.userCacheInfo.displayName);
  const [passwordPending] = useState(isPasswordPending);

  const setPassword = () => {
    markPasswordPending(false);
    onClose();
    // The host's reset dialog: the user enters the email and receives a code.
    useOverlayStore.getState().set('resetPwd', true);
  };

  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('success.title')}
        onCancel={onClose}
        closable={{ 'aria-label': t('subscription.close') }}
        footer={null}
        width={520}
      >
        <p className="success-modal__greeting">
          {typeof name === 'string' && name ? t('success.greeting', { name }) : t('success.greetingNoName')}
        </p>
        <h3>{t('success.nextTitle')}</h3>
        <ol className="success-modal__next">
          {nextKeys.map((key) => (
            <li key={key}>{t(`success.next.${key}`)}</li>
          ))}
        </ol>
        {passwordPending && (
          <section className="success-modal__password" aria-labelledby="success-password-title">
            <h3 id="success-password-title">{t('success.passwordTitle')}</h3>
            <p>{t('success.passwordText')}</p>
            <Button onClick={setPassword}>{t('success.setPassword')}</Button>
          </section>
        )}
        <div className="success-modal__actions">
          <Button onClick={() => navigate(localizePath(routePaths.mySubscription, locale))}>
            {t('success.mySubscription')}
          </Button>
          <Button type="primary" onClick={onClose} autoFocus>
            {t('success.toDashboard')}
          </Button>
        </div>
      </Modal>
    </AntdScope>
  );
}
