import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { isValidEmail } from '@kabari/shared/validation/email';
import { billingNamespace } from '../../i18n/billing-namespace';
import { confirmEmailChange, requestEmailChange } from './account-api';
import { CodeField, CurrentPasswordField, OutcomeText, Part, trimmed, useAction } from './account-form-parts';

/** Two steps: the new address and the password send a code there; the code makes the change. */
export function EmailForm() {
  const { t } = useTranslation(billingNamespace);
  const email = useUserStore((state) => state.user?.userCacheInfo.email) ?? '';
  const [form] = Form.useForm<{ newEmail: string; password: string }>();
  const [pending, setPending] = useState<string | null>(null);
  // After a change the address form comes back empty; it can only be cleared once it is there again.
  const clearOnReturn = useRef(false);
  useEffect(() => {
    if (pending || !clearOnReturn.current) return;
    clearOnReturn.current = false;
    form.resetFields();
  }, [pending, form]);
  const { busy, outcome, run } = useAction();
  const request = (values: { newEmail: string; password: string }) =>
    run(async () => {
      const newEmail = trimmed(values.newEmail).toLowerCase();
      await requestEmailChange(newEmail, values.password);
      form.resetFields(['password']);
      setPending(newEmail);
      return null;
    });
  const confirm = (values: { verificationCode: string }) =>
    run(async () => {
      const { user } = await confirmEmailChange(pending!, trimmed(values.verificationCode));
      useUserStore.getState().setUser(user);
      const changedTo = pending!;
      clearOnReturn.current = true;
      setPending(null);
      return t('account.emailChanged', { email: changedTo });
    });
  return (
    <Part id="account-email" title={t('account.emailTitle')}>
      {email && <p>{t('account.currentEmail', { email })}</p>}
      {pending ? (
        <Form name="account-email-code" layout="vertical" requiredMark={false} onFinish={confirm}>
          <p role="status">{t('account.emailCodeSent', { email: pending })}</p>
          <CodeField />
          <div className="account-section__actions">
            <Button type="primary" htmlType="submit" loading={busy}>
              {t('account.emailConfirm')}
            </Button>
            <Button
              type="link"
              disabled={busy}
              // The code form goes with its own state; the next address gets an empty one.
              onClick={() => setPending(null)}
            >
              {t('account.emailOtherAddress')}
            </Button>
          </div>
          <OutcomeText outcome={outcome} />
        </Form>
      ) : (
        <Form name="account-email" form={form} layout="vertical" requiredMark={false} noValidate onFinish={request}>
          <Form.Item
            name="newEmail"
            label={t('account.newEmail')}
            validateTrigger="onBlur"
            rules={[
              {
                validator: (_r, v) =>
                  !trimmed(v)
                    ? Promise.reject(new Error(t('account.enterEmail')))
                    : isValidEmail(trimmed(v))
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('account.validEmail'))),
              },
            ]}
          >
            <Input type="email" inputMode="email" autoComplete="email" />
          </Form.Item>
          <CurrentPasswordField />
          <Button htmlType="submit" loading={busy}>
            {t('account.emailSendCode')}
          </Button>
          <OutcomeText outcome={outcome} />
        </Form>
      )}
    </Part>
  );
}
