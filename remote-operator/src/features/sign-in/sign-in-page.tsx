import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { Navigate, useLocation, useNavigate } from '@kabari/shared/routing/router';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { failureMessage, failureOf } from '../../lib/api-failure';
import { consolePages, useConsoleLocale } from '../../lib/console-paths';
import { useOperatorSession } from '../../lib/operator-session';
import { fetchSession, signIn } from '../../lib/session-api';
import { useConsoleTitle } from '../../lib/use-console-title';

interface SignInValues {
  email: string;
  password: string;
  code: string;
}

/** Where to go once signed in: the console page asked for, never anywhere else. */
function nextPage(search: string, fallback: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/(?:id\/)?operator(?:[/?#]|$)/.test(next) ? next : fallback;
}

/** /operator/sign-in: email, password and a current authenticator code (or one recovery code). */
export function SignInPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('signIn.title'));
  const { state, signedIn } = useOperatorSession();
  const { pathTo } = useConsoleLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [form] = Form.useForm<SignInValues>();
  const ended = (location.state as { ended?: boolean } | null)?.ended === true;
  const next = nextPage(location.search, pathTo(consolePages.reports));

  if (state.status === 'signed-in') return <Navigate to={next} replace />;

  async function submit(values: SignInValues) {
    setBusy(true);
    setProblem(null);
    try {
      await signIn({ email: values.email.trim(), password: values.password, code: values.code.replace(/\s+/g, '') });
      // The sign-in's answer has no idle deadline: the session's own read gives it.
      signedIn(await fetchSession());
      navigate(next, { replace: true });
    } catch (error) {
      if (error instanceof PasswordEncryptionError) {
        // Nothing was sent: the code is still unused, so it stays.
        setProblem(t('console.passwordNotSent'));
        return;
      }
      const failure = failureOf(error);
      setProblem(
        failure === 'throttled'
          ? failureMessage(error) || t('signIn.throttledSoon')
          : failure === 'unreachable'
            ? t('console.loadFailed')
            : t('signIn.wrong'),
      );
      form.setFieldValue('code', '');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="console-panel console-narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t('signIn.title')}</h1>
      {ended && !problem && <Alert type="info" showIcon role="status" title={t('console.sessionEnded')} />}
      {problem && <Alert type="error" showIcon role="alert" title={problem} />}
      <Form
        form={form}
        name="operator-sign-in"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void submit(values)}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="email"
          label={t('signIn.email')}
          rules={[{ required: true, type: 'email', message: t('signIn.emailInvalid') }]}
        >
          <Input type="email" autoComplete="username" inputMode="email" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('signIn.password')}
          rules={[{ required: true, message: t('signIn.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('signIn.code')}
          extra={t('signIn.codeHint')}
          rules={[{ required: true, whitespace: true, message: t('signIn.codeRequired') }]}
        >
          <Input autoComplete="one-time-code" spellCheck={false} autoCapitalize="off" maxLength={40} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          {t('signIn.submit')}
        </Button>
      </Form>
    </section>
  );
}
