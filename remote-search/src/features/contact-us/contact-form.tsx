import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '@kabari/shared/routing/router';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { useTypedBeforeHydration } from '@kabari/shared/ui/use-typed-before-hydration';
import { searchContactUsNamespace } from '../../i18n/search-contact-us-namespace';
import {
  contactTopics,
  emptyDraft,
  validateContact,
  type ContactDraft,
  type ContactErrors,
  type ContactField,
  type ContactTopic,
} from './contact-form-validation';
import { sendContactMessage, type SendOutcome } from './send-contact-message';
import { FormField } from '../../components/form-field';
import '../../components/contact-form.css';

const fieldOrder: ContactField[] = ['name', 'email', 'topic', 'message'];
type Failure = Exclude<SendOutcome, 'sent'>;

/**
 * The contact form: plain controlled inputs (no antd), labelled, with errors tied to their field.
 * Errors show after the first submit and then follow the typing; the first wrong field gets focus.
 */
export function ContactForm() {
  const { t } = useTranslation(searchContactUsNamespace);
  const locale = localeFromPath(useLocation().pathname);
  // Prerendered HTML has no handlers: the button waits for hydration rather than doing nothing.
  const hydrated = useHydrated();
  const [draft, setDraft] = useState<ContactDraft>(emptyDraft);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const fields = useRef<
    Partial<Record<ContactField, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null>>
  >({});
  const confirmation = useRef<HTMLHeadingElement>(null);

  const errors: ContactErrors = submitted ? validateContact(draft) : {};

  // Focus follows the form's state: the confirmation once sent, the first field when writing another.
  const [writingAnother, setWritingAnother] = useState(false);
  useEffect(() => {
    if (sentTo) confirmation.current?.focus();
    else if (writingAnother) fields.current.name?.focus();
  }, [sentTo, writingAnother]);

  const update = (field: ContactField, value: string) => setDraft((current) => ({ ...current, [field]: value }));
  useTypedBeforeHydration(() =>
    fieldOrder.map((field) => ({
      element: fields.current[field],
      value: draft[field],
      adopt: (typed) => update(field, typed),
    })),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSubmitted(true);
    setFailure(null);
    const problems = validateContact(draft);
    const firstWrong = fieldOrder.find((field) => problems[field]);
    if (firstWrong) {
      fields.current[firstWrong]?.focus();
      return;
    }
    setSending(true);
    const outcome = await sendContactMessage({
      name: draft.name.trim(),
      email: draft.email.trim(),
      topic: draft.topic as ContactTopic,
      message: draft.message.trim(),
      locale,
    });
    setSending(false);
    if (outcome === 'sent') {
      setSentTo(draft.email.trim());
      setDraft(emptyDraft);
      setSubmitted(false);
    } else {
      setFailure(outcome);
    }
  }

  if (sentTo) {
    return (
      <section className="contact-form contact-form--sent" aria-labelledby="contact-sent-title">
        <h2 id="contact-sent-title" ref={confirmation} tabIndex={-1}>
          {t('sent.title')}
        </h2>
        <p>{t('sent.text', { email: sentTo })}</p>
        <button
          type="button"
          className="contact-form__button"
          onClick={() => {
            setSentTo(null);
            setWritingAnother(true);
          }}
        >
          {t('sent.another')}
        </button>
      </section>
    );
  }

  const errorOf = (field: ContactField) => (errors[field] ? t(`form.errors.${errors[field]}`) : undefined);
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <form className="contact-form" noValidate onSubmit={submit} aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">{t('form.title')}</h2>
      <p className="contact-form__note">{t('form.required')}</p>
      {hasErrors && (
        <p className="contact-form__summary" role="alert">
          {t('form.errors.summary')}
        </p>
      )}

      <FormField id="contact-name" label={t('form.name')} error={errorOf('name')}>
        {(control) => (
          <input
            {...control}
            ref={(element) => {
              fields.current.name = element;
            }}
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={200}
            value={draft.name}
            onChange={(event) => update('name', event.target.value)}
          />
        )}
      </FormField>

      <FormField id="contact-email" label={t('form.email')} hint={t('form.emailHint')} error={errorOf('email')}>
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
            value={draft.email}
            onChange={(event) => update('email', event.target.value)}
          />
        )}
      </FormField>

      <FormField id="contact-topic" label={t('form.topic')} error={errorOf('topic')}>
        {(control) => (
          <select
            {...control}
            ref={(element) => {
              fields.current.topic = element;
            }}
            name="topic"
            required
            value={draft.topic}
            onChange={(event) => update('topic', event.target.value)}
          >
            <option value="">{t('form.topicPlaceholder')}</option>
            {contactTopics.map((topic) => (
              <option key={topic} value={topic}>
                {t(`form.topics.${topic}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>

      <FormField id="contact-message" label={t('form.message')} hint={t('form.messageHint')} error={errorOf('message')}>
        {(control) => (
          <textarea
            {...control}
            ref={(element) => {
              fields.current.message = element;
            }}
            name="message"
            rows={7}
            required
            value={draft.message}
            onChange={(event) => update('message', event.target.value)}
          />
        )}
      </FormField>

      {failure && (
        <p className="contact-form__failure" role="alert">
          {t(`form.errors.${failure}`)}
        </p>
      )}
      <button type="submit" className="contact-form__button contact-form__button--primary" disabled={!hydrated}>
        {sending ? t('form.sending') : t('form.submit')}
      </button>
      <p className="contact-form__status" role="status">
        {sending ? t('form.sending') : ''}
      </p>
    </form>
  );
}
