import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input, { type InputRef } from 'antd/es/input';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { hostNamespace } from '../../i18n/host-namespace';
import { dashboardPath } from '../../lib/route-targets';
import { returnToOf } from '../../lib/return-to';
import { showToast } from '@kabari/shared/ui/toasts';
import { logIn } from './auth-api';
import { canSubmitLogin, trimmed, type LoginValues } from './auth-validation';
import { AuthForm, AuthModal } from './auth-modal';
import { EmailField } from './email-field';
import { PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { ApiError } from '@kabari/shared/api/api-error';

/** The login dialog, opened by the `login` overlay flag. Loaded the first time it opens. */
export default function LoginDialog() {
  const { t } = useTranslation(hostNamespace);
  const open = useOverlayStore((state) => state.open.login);
  const setOverlay = useOverlayStore((state) => state.set);
  const [form] = Form.useForm<LoginValues>();
  const emailInput = useRef<InputRef>(null);
  const [submitting, setSubmitting] = useState(false);
  // The state updates a render later; the ref blocks a second submit at once.
  const submittingNow = useRef(false);
  const { pathname, search } = useLocation();
  const navigate = useNavigate();

  const close = () => {
    form.resetFields();
    setOverlay('login', false);
  };

  const openReset = () => {
    close();
    setOverlay('resetPwd', true);
  };

  const submit = async (values: LoginValues) => {
    if (submittingNow.current || !canSubmitLogin(values)) return;
    submittingNow.current = true;
    setSubmitting(true);
    try {
      // The server has set the session cookie; the app keeps the user.
      const { user } = await logIn(trimmed(values.email), trimmed(values.password));
      useUserStore.getState().setUser(user);
      // Sent here from a page that needs signing in (a reminder's link to pay): back to it.
      navigate(returnToOf(search) ?? dashboardPath(localeFromPath(pathname)));
      close();
    } catch (error) {
      // The dialog stays open. A refused login was already toasted by the API client with the
      // server's reason; the dialog adds no message of its own.
      if (error instanceof PasswordEncryptionError) showToast('error', t('auth.encryptionFailed'));
      // A suspended account's refusal (403), which the API client leaves to the dialog.
      else if (error instanceof ApiError && error.status === 403) showToast('error', error.message);
    } finally {
      submittingNow.current = false;
      setSubmitting(false);
    }
  };

  return (
    <AuthModal open={open} title={t('auth.login.title')} onClose={close} firstField={emailInput}>
      <AuthForm name="login" form={form} onFinish={submit}>
        <EmailField inputRef={emailInput} />
        <Form.Item
          name="password"
          label={t('auth.password')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: (_rule, value) =>
                trimmed(value) ? Promise.resolve() : Promise.reject(new Error(t('auth.enterPassword'))),
            },
          ]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={submitting} block size="large">
          {t('auth.login.submit')}
        </Button>
        <Button type="link" onClick={openReset} className="auth-dialog__secondary">
          {t('auth.login.forgotPassword')}
        </Button>
      </AuthForm>
    </AuthModal>
  );
}
