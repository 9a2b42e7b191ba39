import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation } from '@kabari/shared/routing/router';
import { useSignedIn } from '@kabari/shared/stores/session-store';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { useTypedBeforeHydration } from '@kabari/shared/ui/use-typed-before-hydration';
import { isValidEmail } from '@kabari/shared/validation/email';
import { searchUnsubscribeAndRefundNamespace } from '../../i18n/search-unsubscribe-and-refund-namespace';
import { requestRefund, sendRefundCode } from './refund-api';
import { FormField } from '../../components/form-field';
import '../../components/contact-form.css';

type Field = 'email' | 'code' | 'reason';
type ErrorKey = 'enterEmail' | 'validEmail' | 'enterCode' | 'codeFirst' | 'enterReason';
const fieldOrder: Field[] = ['email', 'code', 'reason'];
export const minReasonLength = 10;

/**
 * The cancel-and-refund form: the account's email, confirmed by an emailed code (send-code
 * type 2) unless signed in as that account, and a reason. Plain inputs, like the contact form: this
 * page is prerendered and must stay light; the API client loads on the first call.
 */
export function RefundForm() {
  const { t } = useTranslation(searchUnsubscribeAndRefundNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const hydrated = useHydrated();
  const signedIn = useSignedIn();
  const needsCode = !signedIn;
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [reason, setReason] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [sendingCode, setSendingCode] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentFor, setSentFor] = useState<string | null>(null);
  const fields = useRef<Partial<Record<Field, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const confirmation = useRef<HTMLHeadingElement>(null);
  useTypedBeforeHydration(() => [
    { element: fields.current.email, value: email, adopt: setEmail },
    { element: fields.current.code, value: code, adopt: setCode },
    { element: fields.current.reason, value: reason, adopt: setReason },
  ]);

  useEffect(() => {
    if (sentFor) confirmation.current?.focus();
  }, [sentFor]);

  const emailError = (): ErrorKey | undefined =>
    !email.trim() ? 'enterEmail' : isValidEmail(email.trim()) ? undefined : 'validEmail';
  const validate = (): Partial<Record<Field, ErrorKey>> => {
    const errors: Partial<Record<Field, ErrorKey>> = {};
    const emailProblem = emailError();
    if (emailProblem) errors.email = emailProblem;
    if (needsCode && !code.trim()) errors.code = codeSentTo ? 'enterCode' : 'codeFirst';
    if (reason.trim().length < minReasonLength) errors.reason = 'enterReason';
    return errors;
  };
  const errors = submitted ? validate() : {};

  async function sendCode() {
    if (sendingCode) return;
    setFailure(null);
    const problem = emailError();
    if (problem) {
      setSubmitted(true);
      fields.current.email?.focus();
      return;
    }
    setSendingCode(true);
    const outcome = await sendRefundCode(email.trim());
    setSendingCode(false);
    if (outcome.ok) {
      setCodeSentTo(email.trim());
      fields.current.code?.focus();
    } else
      setFailure(outcome.message ? t('form.errors.failed', { reason: outcome.message }) : t('form.errors.network'));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSubmitted(true);
    setFailure(null);
    const problems = validate();
    const firstWrong = fieldOrder.find((field) => problems[field]);
    if (firstWrong) {
      fields.current[firstWrong]?.focus();
      return;
    }
    setSending(true);
    const outcome = await requestRefund({
      email: email.trim(),
      reason: reason.trim(),
      locale,
      ...(needsCode ? { verificationCode: code.trim() } : {}),
    });
    setSending(false);
    if (outcome.ok) setSentFor(email.trim());
    else setFailure(outcome.message ? t('form.errors.failed', { reason: outcome.message }) : t('form.errors.network'));
  }

  if (sentFor) {
    return (
      <section className="contact-form contact-form--sent" aria-labelledby="refund-sent-title">
        <h2 id="refund-sent-title" ref={confirmation} tabIndex={-1}>
          {t('form.sent.title')}
        </h2>
        <p>{t('form.sent.text', { email: sentFor })}</p>
      </section>
    );
  }

  const errorOf = (field: Field) => (errors[field] ? t(`form.errors.${errors[field]}`) : undefined);

  return (
    <form className="contact-form" noValidate onSubmit={submit} aria-labelledby="refund-form-title">
      <h2 id="refund-form-title">{t('form.title')}</h2>
      <p className="contact-form__note">{t('form.intro')}</p>
      {Object.keys(errors).length > 0 && (
        <p className="contact-form__summary" role="alert">
          {t('form.errors.summary')}
        </p>
      )}

      <FormField
        id="refund-email"
        label={t('form.email')}
        error={errorOf('email')}
        after={
          <>
            {needsCode && (
              <button
                type="button"
                className="contact-form__button"
                onClick={() => void sendCode()}
                disabled={!hydrated || sendingCode}
              >
                {sendingCode ? t('form.sendingCode') : t('form.sendCode')}
              </button>
            )}
            <p className="contact-form__hint" role="status">
              {codeSentTo ? t('form.codeSent', { email: codeSentTo }) : ''}
            </p>
          </>
        }
      >
        {(control) => (
          <input
            {...control}
            ref={(element) => {
              fields.current.email = element;
            }}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </FormField>

      {needsCode && (
        <FormField id="refund-code" label={t('form.code')} error={errorOf('code')}>
          {(control) => (
            <input
              {...control}
              ref={(element) => {
                fields.current.code = element;
              }}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            />
          )}
        </FormField>
      )}

      <FormField id="refund-reason" label={t('form.reason')} hint={t('form.reasonHint')} error={errorOf('reason')}>
        {(control) => (
          <textarea
            {...control}
            ref={(element) => {
              fields.current.reason = element;
            }}
            name="reason"
            rows={5}
            maxLength={2000}
            required
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </FormField>

      {failure && (
        <p className="contact-form__failure" role="alert">
          {failure}
        </p>
      )}
      <button
        type="submit"
        className="contact-form__button contact-form__button--primary"
        disabled={!hydrated || sending}
      >
        {sending ? t('form.sending') : t('form.submit')}
      </button>
    </form>
  );
}
