import { useId, useState, type FormEvent } from 'react';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useShareText } from '../../lib/share-text';
import { recipientPath } from '../../lib/share-flow';
import { shareApi, type ReportReason } from '../../lib/share-api';
import { FormActionButton } from '../../components/form-action-button';

const reasons: ReportReason[] = ['unknown_requester', 'harassment', 'stalking', 'spam', 'other'];

interface PanelProps {
  token: string;
  locale: Locale;
  /** The server already did it (the form was sent without the page's script). */
  done?: boolean;
  /** The server's words when the form, sent without the page's script, was refused. */
  failure?: string;
}

/**
 * The panel's way back, as a plain form too: without the page's script it loads the page without the panel (a GET
 * of the page with its token alone).
 */
function BackButton({
  token,
  locale,
  label,
  onBack,
}: {
  token: string;
  locale: Locale;
  label: string;
  onBack: () => void;
}) {
  return (
    <button
      type="submit"
      formMethod="get"
      formAction={localizePath(routePaths.enterLink, locale)}
      name="token"
      value={token}
      className="recipient__button"
      onClick={(event) => {
        event.preventDefault();
        onBack();
      }}
    >
      {label}
    </button>
  );
}

/**
 * Opt-out confirmation: shown when asked for, or at once when the message's opt-out link was followed. A plain form
 * too, which the server answers with this page saying it is done.
 */
export function OptOutPanel({
  token,
  locale,
  done,
  failure,
  onDone,
  onCancel,
}: PanelProps & { onDone: () => void; onCancel: () => void }) {
  const t = useShareText();
  const [phase, setPhase] = useState<'ask' | 'sending' | 'done' | 'error'>(done ? 'done' : failure ? 'error' : 'ask');
  const confirm = () => {
    setPhase('sending');
    shareApi
      .optOut(token)
      .then(() => {
        setPhase('done');
        onDone();
      })
      .catch(() => setPhase('error'));
  };
  return (
    <section className="recipient__panel" aria-labelledby="opt-out-title">
      <h2 id="opt-out-title">{t('optOut.title')}</h2>
      {phase === 'done' ? (
        <p role="status">{t('optOut.done')}</p>
      ) : (
        <form method="post" action={recipientPath('enterLink', locale, { token })}>
          <p>{t('optOut.text')}</p>
          {phase === 'error' && <p role="alert">{failure ?? t('enterLink.error')}</p>}
          <div className="recipient__actions">
            <FormActionButton action="opt-out" primary onAction={confirm} disabled={phase === 'sending'}>
              {t('optOut.confirm')}
            </FormActionButton>
            <BackButton token={token} locale={locale} label={t('optOut.cancel')} onBack={onCancel} />
          </div>
        </form>
      )}
    </section>
  );
}

/** Report abuse: a plain form too, which the server answers with this page thanking the recipient. */
export function ReportPanel({ token, locale, done, failure, onClose }: PanelProps & { onClose: () => void }) {
  const t = useShareText();
  const id = useId();
  const [reason, setReason] = useState<ReportReason>('unknown_requester');
  const [details, setDetails] = useState('');
  const [phase, setPhase] = useState<'form' | 'sending' | 'done' | 'error'>(done ? 'done' : failure ? 'error' : 'form');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPhase('sending');
    shareApi
      .report(token, reason, details.trim())
      .then(() => setPhase('done'))
      .catch(() => setPhase('error'));
  };
  return (
    <section className="recipient__panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('report.title')}</h2>
      {phase === 'done' ? (
        <p role="status">{t('report.done')}</p>
      ) : (
        <form
          method="post"
          action={recipientPath('enterLink', locale, { token })}
          onSubmit={submit}
          aria-labelledby={`${id}-title`}
        >
          <p>{t('report.text')}</p>
          <label htmlFor={`${id}-reason`}>{t('report.reason')}</label>
          <select
            id={`${id}-reason`}
            name="reason"
            value={reason}
            onChange={(event) => setReason(event.target.value as ReportReason)}
          >
            {reasons.map((value) => (
              <option key={value} value={value}>
                {t(`report.reasons.${value}`)}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-details`}>{t('report.details')}</label>
          <textarea
            id={`${id}-details`}
            name="details"
            value={details}
            maxLength={2000}
            rows={3}
            onChange={(event) => setDetails(event.target.value)}
          />
          {phase === 'error' && <p role="alert">{failure ?? t('enterLink.error')}</p>}
          <div className="recipient__actions">
            <button
              type="submit"
              name="action"
              value="report"
              className="recipient__button recipient__button--primary"
              disabled={phase === 'sending'}
            >
              {t('report.send')}
            </button>
            <BackButton token={token} locale={locale} label={t('report.cancel')} onBack={onClose} />
          </div>
        </form>
      )}
    </section>
  );
}
