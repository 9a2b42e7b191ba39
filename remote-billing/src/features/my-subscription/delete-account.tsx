import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useNavigate } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { billingNamespace } from '../../i18n/billing-namespace';
import { deleteAccount, sendDeletionCode } from './account-api';
import { CodeField, CurrentPasswordField, OutcomeText, Part, trimmed, useAction } from './account-form-parts';

export function DeleteAccount({ locale }: { locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const navigate = useNavigate();
  const email = useUserStore((state) => state.user?.userCacheInfo.email) ?? '';
  const [by, setBy] = useState<'password' | 'code'>('password');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);
  const [form] = Form.useForm<{ password?: string; verificationCode?: string }>();
  const { busy, outcome, run } = useAction();
  const sending = useAction();

  if (deleted) {
    return (
      <Part id="account-delete" title={t('account.deleteTitle')}>
        <p role="status">{t('account.deleted')}</p>
        <Button
          type="primary"
          onClick={() => {
            clearSession();
            navigate(localizePath(routePaths.home, locale), { replace: true });
          }}
        >
          {t('account.deletedOk')}
        </Button>
      </Part>
    );
  }

  const submit = (values: { password?: string; verificationCode?: string }) =>
    run(async () => {
      await deleteAccount(
        by === 'password'
          ? { password: values.password ?? '' }
          : { verificationCode: trimmed(values.verificationCode) },
      );
      setDeleted(true);
      return null;
    });

  return (
    <Part id="account-delete" title={t('account.deleteTitle')}>
      <p>{t('account.deleteText')}</p>
      <Form name="account-delete" form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <fieldset className="account-section__choice">
          <legend>{t('account.deleteWith')}</legend>
          <Radio.Group
            value={by}
            onChange={(event) => setBy(event.target.value as 'password' | 'code')}
            options={[
              { value: 'password', label: t('account.deleteWithPassword') },
              { value: 'code', label: t('account.deleteWithCode') },
            ]}
          />
        </fieldset>
        {by === 'password' ? (
          <CurrentPasswordField />
        ) : (
          <>
            <Button
              loading={sending.busy}
              disabled={!email}
              onClick={() =>
                void sending.run(async () => {
                  await sendDeletionCode(email);
                  setCodeSentTo(email);
                  return null;
                })
              }
              className="account-section__send-code"
            >
              {t('account.sendCode')}
            </Button>
            {codeSentTo && <p role="status">{t('account.codeSent', { email: codeSentTo })}</p>}
            <OutcomeText outcome={sending.outcome} />
            <CodeField />
          </>
        )}
        <Button danger type="primary" htmlType="submit" loading={busy}>
          {t('account.delete')}
        </Button>
        <OutcomeText outcome={outcome} />
      </Form>
    </Part>
  );
}
