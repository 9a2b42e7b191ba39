import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { billingNamespace } from '../../i18n/billing-namespace';

// What the Account tab's forms share: a part's frame, the outcome beside a form, the password and code fields,
// and running a form's call one at a time.

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

const reason = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));

export const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function OutcomeText({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.ok ? (
    <p role="status" className="account-section__ok">
      {outcome.text}
    </p>
  ) : (
    <Alert type="error" role="alert" showIcon title={outcome.text} className="account-section__failure" />
  );
}

export function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="account-section__part" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The account's password, asked again before a change of email or deleting the account. */
export function CurrentPasswordField() {
  const { t } = useTranslation(billingNamespace);
  return (
    <Form.Item
      name="password"
      label={t('account.password')}
      rules={[{ required: true, message: t('account.enterPassword') }]}
    >
      <Input.Password autoComplete="current-password" />
    </Form.Item>
  );
}

/** The emailed 6-digit code (a change of email, deleting the account). */
export function CodeField() {
  const { t } = useTranslation(billingNamespace);
  return (
    <Form.Item
      name="verificationCode"
      label={t('account.code')}
      rules={[{ required: true, message: t('account.enterCode') }]}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
    </Form.Item>
  );
}

/** Runs a form's call: one at a time, with its outcome shown beside the form. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { t } = useTranslation(billingNamespace);
  const run = async (call: () => Promise<string | null>) => {
    if (busy) return;
    setBusy(true);
    setOutcome(null);
    try {
      const text = await call();
      if (text) setOutcome({ ok: true, text });
    } catch (error) {
      setOutcome({ ok: false, text: t('account.failed', { reason: reason(error) }) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, run };
}

/**
 * A part that shows what the server says (sessions, notice settings, …): `load()` runs once when the part opens, as
 * the part's action (busy meanwhile, a failure shown as its outcome); `setData` shows a newer answer.
 */
export function useActionLoadedOnce<T>(load: () => Promise<T>) {
  const action = useAction();
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    void action.run(async () => {
      setData(await load());
      return null;
    });
    // Once, when the part opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { ...action, data, setData };
}
