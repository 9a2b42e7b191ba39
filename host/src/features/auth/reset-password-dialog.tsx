import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input, { type InputRef } from 'antd/es/input';
import { isApiError } from '@kabari/shared/api/api-error';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { hostNamespace } from '../../i18n/host-namespace';
import { showToast } from '@kabari/shared/ui/toasts';
import { resetPassword, sendResetCode } from './auth-api';
import {
  missingResetFields,
  newPasswordBounds,
  newPasswordTooShortOrLong,
  trimmed,
  type ResetValues,
} from './auth-validation';
import { PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { AuthForm, AuthModal } from './auth-modal';
import { EmailField } from './email-field';

type Step = 'email' | 'newPassword';

/**
 * The reset-password dialog: step one asks for the email and sends a code; step two
 * adds the new password and the code. Opened by the `resetPwd` overlay flag, loaded when first opened.
 */
export default function ResetPasswordDialog() {
  const { t } = useTranslation(hostNamespace);
  const open = useOverlayStore((state) => state.open.resetPwd);
  const setOverlay = useOverlayStore((state) => state.set);
  const [form] = Form.useForm<ResetValues>();
  const emailInput = useRef<InputRef>(null);
  const [step, setStep] = useState<Step>('email');
  const [busy, setBusy] = useState(false);
  const busyNow = useRef(false);

  // Closing, by the close button or after success, starts over at step one with empty fields.
  const close = () => {
    form.resetFields();
    setStep('email');
    setOverlay('resetPwd', false);
  };

  const run = async (work: () => Promise<void>) => {
    if (busyNow.current) return;
    busyNow.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      busyNow.current = false;
      setBusy(false);
    }
  };

  const sendCode = (email: string) =>
    run(async () => {
      try {
        if (await sendResetCode(email)) {
          showToast('success', t('auth.reset.sendCodeSuccess'));
          setStep('newPassword');
          return;
        }
        showToast('error', t('auth.reset.sendCodeFailed'));
      } catch (error) {
        // SendCodeFailed, with the server's reason when it gave one (e.g. too many codes requested).
        const reason = isApiError(error) && error.status !== undefined ? error.message : '';
        showToast('error', [t('auth.reset.sendCodeFailed'), reason].filter(Boolean).join(' '));
      }
    });

  const confirm = (values: ResetValues) => {
    const missing = missingResetFields(values);
    if (missing.length) {
      showToast('error', t('auth.reset.pleaseEnterCode'));
      form.setFields(
        missing.map((name) => ({
          name,
          errors: [t(name === 'code' ? 'auth.reset.enterCode' : 'auth.reset.enterNewPassword')],
        })),
      );
      return;
    }
    return run(async () => {
      try {
        const done = await resetPassword(trimmed(values.email), trimmed(values.newPassword), trimmed(values.code));
        if (!done) return;
        showToast('success', t('auth.reset.success'));
        close();
      } catch (error) {
        // The API client already toasted the server's reason (wrong or expired code...); stay on step two.
        if (error instanceof PasswordEncryptionError) showToast('error', t('auth.encryptionFailed'));
      }
    });
  };

  const submit = (values: ResetValues) => {
    if (busyNow.current) return;
    if (step === 'email') return sendCode(trimmed(values.email));
    return confirm(values);
  };

  return (
    <AuthModal open={open} title={t('auth.reset.title')} onClose={close} firstField={emailInput}>
      <p className="auth-dialog__intro">{step === 'email' ? t('auth.reset.intro') : t('auth.reset.codeSentIntro')}</p>
      <AuthForm name="reset-password" form={form} onFinish={submit}>
        <EmailField inputRef={emailInput} />
        {step === 'newPassword' && (
          <>
            <Form.Item
              name="newPassword"
              label={t('auth.reset.newPassword')}
              validateTrigger="onBlur"
              rules={[
                {
                  validator: (_rule, value) =>
                    newPasswordTooShortOrLong(value)
                      ? Promise.reject(new Error(t('auth.reset.passwordLength', newPasswordBounds)))
                      : Promise.resolve(),
                },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="code" label={t('auth.reset.code')}>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={busy} block size="large">
          {step === 'email' ? t('auth.reset.submitReset') : t('auth.reset.submitConfirm')}
        </Button>
      </AuthForm>
    </AuthModal>
  );
}
