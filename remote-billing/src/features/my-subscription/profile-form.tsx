import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { billingNamespace } from '../../i18n/billing-namespace';
import { updateDisplayName } from './account-api';
import { displayNameProblem } from '@kabari/rules/display-name';
import { DISPLAY_NAME_MAX_LENGTH } from '@kabari/rules/display-name-limits';
import { displayNameNamespace, displayNameProblemText } from '@kabari/shared/validation/display-name-namespace';
import { OutcomeText, Part, trimmed, useAction } from './account-form-parts';

export function ProfileForm() {
  const { t } = useTranslation(billingNamespace);
  const { t: sayName } = useTranslation(displayNameNamespace);
  const info = useUserStore((state) => state.user?.userCacheInfo);
  const [form] = Form.useForm<{ displayName: string }>();
  const { busy, outcome, run } = useAction();
  const submit = ({ displayName }: { displayName: string }) =>
    run(async () => {
      const { user } = await updateDisplayName(trimmed(displayName));
      useUserStore.getState().setUser(user);
      return t('account.saved');
    });
  return (
    <Part id="account-profile" title={t('account.profileTitle')}>
      <Form
        name="account-profile"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ displayName: info?.displayName ?? '' }}
        onFinish={submit}
      >
        <Form.Item
          name="displayName"
          label={t('account.displayName')}
          extra={t('account.displayNameHint')}
          rules={[
            {
              // The server's rule for a name, in the page's language: no link, no phone number, no symbols.
              validator: (_r, v) => {
                const problem = displayNameProblem(trimmed(v));
                if (!problem) return Promise.resolve();
                const text = problem === 'empty' ? t('account.enterName') : displayNameProblemText(sayName, problem);
                return Promise.reject(new Error(text));
              },
            },
          ]}
        >
          <Input autoComplete="name" maxLength={DISPLAY_NAME_MAX_LENGTH} />
        </Form.Item>
        <Button htmlType="submit" loading={busy}>
          {t('account.save')}
        </Button>
        <OutcomeText outcome={outcome} />
      </Form>
    </Part>
  );
}
