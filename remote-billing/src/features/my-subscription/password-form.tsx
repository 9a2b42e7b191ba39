import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { billingNamespace } from '../../i18n/billing-namespace';
import { changePassword } from './account-api';
import { OutcomeText, Part, useAction } from './account-form-parts';

export function PasswordForm() {
  const { t } = useTranslation(billingNamespace);
  const [form] = Form.useForm<{ password: string; newPassword: string }>();
  const { busy, outcome, run } = useAction();
  const submit = (values: { password: string; newPassword: string }) =>
    run(async () => {
      await changePassword(values.password, values.newPassword);
      form.resetFields();
      return t('account.passwordChanged');
    });
  return (
    <Part id="account-password" title={t('account.passwordTitle')}>
      <Form name="account-password" form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="password"
          label={t('account.password')}
          extra={t('account.noPasswordHint')}
          rules={[{ required: true, message: t('account.enterPassword') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('account.newPassword')}
          extra={t('account.newPasswordHint')}
          rules={[
            {
              validator: (_r, v) =>
                typeof v === 'string' && v.length >= 8
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('account.passwordShort'))),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button htmlType="submit" loading={busy}>
          {t('account.changePassword')}
        </Button>
        <OutcomeText outcome={outcome} />
      </Form>
    </Part>
  );
}
