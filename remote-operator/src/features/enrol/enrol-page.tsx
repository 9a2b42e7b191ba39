import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Spin from 'antd/es/spin';
import QRCode from 'qrcode';
import { PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { failureMessage, failureOf } from '../../lib/api-failure';
import { consolePages, useConsoleLocale } from '../../lib/console-paths';
import { useOperatorSession } from '../../lib/operator-session';
import { fetchSession } from '../../lib/session-api';
import { useConsoleTitle } from '../../lib/use-console-title';
import { beginEnrolment, finishEnrolment, type Enrolment } from './enrol-api';
import { RecoveryCodes } from './recovery-codes';

/** The password the server asks for at the least. */
const passwordMinLength = 12;

interface EnrolValues {
  password: string;
  confirm: string;
  code: string;
}

type Step =
  | { step: 'starting' }
  | { step: 'refused'; reason: 'noToken' | 'invalidToken' | 'unreachable' }
  | { step: 'form'; enrolment: Enrolment; qr: string | null }
  | { step: 'codes'; email: string; codes: string[] };

/** The token travels in the address's fragment, which no server ever sees (nor logs). */
function tokenOf(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}

/**
 * /operator/enrol#token=…: the one-time link the `npm run operator -- add EMAIL` command prints. Shows the new
 * authenticator secret (QR code and text), sets the password, checks a first code, then shows the recovery codes
 * once and goes on to the console (finishing signs in).
 */
export function EnrolPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('enrol.title'));
  const location = useLocation();
  const navigate = useNavigate();
  const { pathTo } = useConsoleLocale();
  const { signedIn } = useOperatorSession();
  const [token] = useState(() => tokenOf(location.hash));
  const [state, setState] = useState<Step>(token ? { step: 'starting' } : { step: 'refused', reason: 'noToken' });
  const [busy, setBusy] = useState(false);
  // The server's refusal in its own words (a wrong code, a password it will not take, a wait), or the page's own.
  const [problem, setProblem] = useState<{ refused: string } | 'passwordNotSent' | null>(null);
  const begun = useRef<string | null>(null);
  const [form] = Form.useForm<EnrolValues>();

  useEffect(() => {
    // Once per token: each beginning makes a new secret, and the one scanned must be the one kept.
    if (!token || begun.current === token) return;
    begun.current = token;
    // The token leaves the address bar (and the history) once read.
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    beginEnrolment(token).then(
      async (enrolment) => {
        const qr = await QRCode.toDataURL(enrolment.otpauthUrl, { margin: 1, width: 200 }).catch(() => null);
        setState({ step: 'form', enrolment, qr });
      },
      (error: unknown) =>
        setState({ step: 'refused', reason: failureOf(error) === 'unreachable' ? 'unreachable' : 'invalidToken' }),
    );
  }, [token]);

  async function finish(values: EnrolValues) {
    if (!token || state.step !== 'form') return;
    setBusy(true);
    setProblem(null);
    try {
      const codes = await finishEnrolment(token, values.password, values.code.replace(/\s+/g, ''));
      setState({ step: 'codes', email: state.enrolment.email, codes });
    } catch (error) {
      // Nothing was sent: the code is still good, so it stays.
      if (error instanceof PasswordEncryptionError) {
        setProblem('passwordNotSent');
        return;
      }
      const failure = failureOf(error);
      if (failure === 'gone') setState({ step: 'refused', reason: 'invalidToken' });
      else setProblem({ refused: failure === 'unreachable' ? t('console.loadFailed') : failureMessage(error) });
      form.setFieldValue('code', '');
    } finally {
      setBusy(false);
    }
  }

  async function toConsole() {
    signedIn(await fetchSession());
    navigate(pathTo(consolePages.reports), { replace: true });
  }

  if (state.step === 'codes') {
    return <RecoveryCodes codes={state.codes} email={state.email} onContinue={() => void toConsole()} />;
  }
  return (
    <section className="console-panel console-narrow" aria-labelledby="enrol-title">
      <h1 id="enrol-title">{t('enrol.title')}</h1>
      {state.step === 'starting' && (
        <div className="console-loading" role="status">
          <Spin size="small" /> {t('console.loading')}
        </div>
      )}
      {state.step === 'refused' && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={state.reason === 'unreachable' ? t('console.loadFailed') : t(`enrol.${state.reason}`)}
        />
      )}
      {state.step === 'form' && (
        <>
          <p>{t('enrol.intro')}</p>
          <p>
            <strong>{t('enrol.email', { email: state.enrolment.email })}</strong>
          </p>
          <h2>{t('enrol.scanStep')}</h2>
          {state.qr && <img className="console-qr" src={state.qr} alt={t('enrol.qrAlt')} width={200} height={200} />}
          <p>
            {t('enrol.secretLabel')} <code className="console-secret">{state.enrolment.secret}</code>
          </p>
          <Form
            form={form}
            name="operator-enrol"
            layout="vertical"
            requiredMark={false}
            onFinish={(values) => void finish(values)}
          >
            <h2>{t('enrol.passwordStep')}</h2>
            <Form.Item
              name="password"
              label={t('enrol.password')}
              extra={t('enrol.passwordHint')}
              rules={[{ required: true, min: passwordMinLength, message: t('enrol.passwordTooShort') }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('enrol.confirmPassword')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('enrol.passwordsDiffer') },
                ({ getFieldValue }) => ({
                  validator: async (_rule, value) => {
                    if (value && value !== getFieldValue('password')) throw new Error(t('enrol.passwordsDiffer'));
                  },
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <h2>{t('enrol.codeStep')}</h2>
            {problem !== null && problem !== 'passwordNotSent' && (
              <Alert type="error" showIcon role="alert" title={problem.refused} />
            )}
            <Form.Item
              name="code"
              label={t('enrol.code')}
              rules={[{ required: true, pattern: /^\s*\d{3}\s*\d{3}\s*$/, message: t('enrol.codeInvalid') }]}
            >
              <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} />
            </Form.Item>
            {problem === 'passwordNotSent' && (
              <Alert
                type="error"
                showIcon
                role="alert"
                title={t('console.passwordNotSent')}
                style={{ marginBottom: 16 }}
              />
            )}
            <Button type="primary" htmlType="submit" loading={busy} block>
              {t('enrol.finish')}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
