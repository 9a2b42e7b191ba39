import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import Form from 'antd/es/form';
import Input, { type InputRef } from 'antd/es/input';
import { hostNamespace } from '../../i18n/host-namespace';
import { emailProblem } from './auth-validation';

/**
 * The email field of the login and reset-password dialogs: checked when the user leaves it, its problem said in the
 * page's language. `inputRef` lets the dialog put the cursor there when it opens.
 */
export function EmailField({ inputRef }: { inputRef: Ref<InputRef> }) {
  const { t } = useTranslation(hostNamespace);
  return (
    <Form.Item
      name="email"
      label={t('auth.email')}
      validateTrigger="onBlur"
      rules={[
        {
          validator: (_rule, value) => {
            const problem = emailProblem(value);
            return problem ? Promise.reject(new Error(t(`auth.${problem}`))) : Promise.resolve();
          },
        },
      ]}
    >
      <Input ref={inputRef} type="email" inputMode="email" autoComplete="username" />
    </Form.Item>
  );
}
