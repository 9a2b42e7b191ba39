import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { localeFromPath, localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { isValidEmail } from '@kabari/shared/validation/email';
import { billingNamespace } from '../../i18n/billing-namespace';
import {
  changePassword,
  confirmEmailChange,
  deleteAccount,
  downloadMyData,
  fetchSessions,
  requestEmailChange,
  revokeSession,
  sendDeletionCode,
  updateDisplayName,
  type AccountSession,
} from './account-api';
import { DISPLAY_NAME_MAX_LENGTH, displayNameProblem } from '@kabari/shared/validation/display-name';
import { displayNameNamespace, displayNameProblemText } from '@kabari/shared/validation/display-name-namespace';
import './account-section.css';

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

const reason = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function OutcomeText({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.ok ? (
    <p role="status" className="account-section__ok">
      {outcome.text}
    </p>
  ) : (
    <Alert type="error" role="alert" showIcon title={outcome.text} className="account-section__failure" />
  );
}

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="account-section__part" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The account's password, asked again before a change of email or deleting the account. */
function CurrentPasswordField() {
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
function CodeField() {
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
function useAction() {
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

function userField(info: Record<string, unknown> | undefined, field: string): string {
  const value = info?.[field];
  return typeof value === 'string' ? value : '';
}

function ProfileForm() {
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
        initialValues={{ displayName: userField(info, 'displayName') }}
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

/** Two steps: the new address and the password send a code there; the code makes the change. */
function EmailForm() {
  const { t } = useTranslation(billingNamespace);
  const email = userField(
    useUserStore((state) => state.user?.userCacheInfo),
    'email',
  );
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

function PasswordForm() {
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

function SessionsList({ locale }: { locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const { busy, outcome, run } = useAction();
  useEffect(() => {
    void run(async () => {
      setSessions(await fetchSessions());
      return null;
    });
    // Once, when the section opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const end = (id: string) =>
    run(async () => {
      await revokeSession(id);
      setSessions(await fetchSessions());
      return null;
    });
  return (
    <Part id="account-sessions" title={t('account.sessionsTitle')}>
      {sessions && sessions.length === 0 && <p>{t('account.sessionsEmpty')}</p>}
      {sessions && sessions.length > 0 && (
        <ul className="account-section__sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <div>
                <strong>{session.userAgent || t('account.unknownDevice')}</strong>
                {session.current && <span className="account-section__current">{t('account.thisDevice')}</span>}
                <br />
                <small>
                  {t('account.signedInAt', { date: formatTime(session.createdAt, locale) })}
                  {session.lastSeenAt
                    ? ` · ${t('account.lastSeen', { date: formatTime(session.lastSeenAt, locale) })}`
                    : ''}
                </small>
              </div>
              {!session.current && (
                <Button size="small" onClick={() => void end(session.id)} disabled={busy}>
                  {t('account.endSession')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <OutcomeText outcome={outcome} />
    </Part>
  );
}

function ExportData() {
  const { t } = useTranslation(billingNamespace);
  const { busy, outcome, run } = useAction();
  return (
    <Part id="account-export" title={t('account.exportTitle')}>
      <p>{t('account.exportText')}</p>
      <Button
        loading={busy}
        onClick={() =>
          void run(async () => {
            await downloadMyData();
            return null;
          })
        }
      >
        {t('account.export')}
      </Button>
      <OutcomeText outcome={outcome} />
    </Part>
  );
}

function DeleteAccount({ locale }: { locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const navigate = useNavigate();
  const email = userField(
    useUserStore((state) => state.user?.userCacheInfo),
    'email',
  );
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

/** The Account tab of My subscription: name, email, password, sessions, export and deletion. */
export function AccountSection() {
  const locale = localeFromPath(useLocation().pathname);
  return (
    <div className="account-section">
      <ProfileForm />
      <EmailForm />
      <PasswordForm />
      <SessionsList locale={locale} />
      <ExportData />
      <DeleteAccount locale={locale} />
    </div>
  );
}
