import { useId, useState, type FormEvent } from 'react';
import { useShareText } from '../../lib/share-text';
import { shareApi, type ReportReason } from '../../lib/share-api';

const reasons: ReportReason[] = ['unknown_requester', 'harassment', 'stalking', 'spam', 'other'];

/** Opt-out confirmation: shown when asked for, or at once when the message's opt-out link was followed. */
export function OptOutPanel({ token, onDone, onCancel }: { token: string; onDone: () => void; onCancel: () => void }) {
  const t = useShareText();
  const [phase, setPhase] = useState<'ask' | 'sending' | 'done' | 'error'>('ask');
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
        <>
          <p>{t('optOut.text')}</p>
          {phase === 'error' && <p role="alert">{t('enterLink.error')}</p>}
          <div className="recipient__actions">
            <button
              type="button"
              className="recipient__button recipient__button--primary"
              onClick={confirm}
              disabled={phase === 'sending'}
            >
              {t('optOut.confirm')}
            </button>
            <button type="button" className="recipient__button" onClick={onCancel}>
              {t('optOut.cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

export function ReportPanel({ token, onClose }: { token: string; onClose: () => void }) {
  const t = useShareText();
  const id = useId();
  const [reason, setReason] = useState<ReportReason>('unknown_requester');
  const [details, setDetails] = useState('');
  const [phase, setPhase] = useState<'form' | 'sending' | 'done' | 'error'>('form');
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
        <form onSubmit={submit} aria-labelledby={`${id}-title`}>
          <p>{t('report.text')}</p>
          <label htmlFor={`${id}-reason`}>{t('report.reason')}</label>
          <select
            id={`${id}-reason`}
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
            value={details}
            maxLength={2000}
            rows={3}
            onChange={(event) => setDetails(event.target.value)}
          />
          {phase === 'error' && <p role="alert">{t('enterLink.error')}</p>}
          <div className="recipient__actions">
            <button
              type="submit"
              className="recipient__button recipient__button--primary"
              disabled={phase === 'sending'}
            >
              {t('report.send')}
            </button>
            <button type="button" className="recipient__button" onClick={onClose}>
              {t('report.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
