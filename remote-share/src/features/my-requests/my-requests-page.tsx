import { useEffect, useState, type FormEvent } from 'react';
import { isApiError } from '@kabari/shared/api/api-error';
import type { Locale } from '@kabari/shared/i18n/locale';
import { clockDuration } from '@kabari/shared/voice/clock-duration';
import { RecipientPageFrame } from '../../components/recipient-page-frame';
import { shareText, type ShareText } from '../../lib/share-text';
import { useRecipientPage, type RecipientPageProps } from '../../lib/use-link';
import {
  myRequestsApi,
  SESSION_END_PATH,
  type ConsentOverview,
  type OverviewRequest,
  type ReportReason,
  type RequestAction,
} from './my-requests-api';
import '../../components/recipient-pages.css';

/**
 * Where Quick exit goes: a page anyone might have open (a weather search), that loads fast on any phone and says
 * nothing about Kabari. The reasons are in docs/product-decisions.md.
 */
const QUICK_EXIT_URL = 'https://www.google.com/search?q=weather';

const REPORT_REASONS: ReportReason[] = ['unknown_requester', 'harassment', 'stalking', 'spam', 'other'];

/**
 * Quick exit: the session ends first (a beacon, which the browser sends even as the page goes), then the page is
 * replaced in the history by the neutral one, so Back does not return here.
 */
function quickExit(): void {
  const beaconSent = () => {
    try {
      return navigator.sendBeacon?.(SESSION_END_PATH) ?? false;
    } catch {
      return false;
    }
  };
  if (!beaconSent()) void fetch(SESSION_END_PATH, { method: 'POST', keepalive: true }).catch(() => undefined);
  window.location.replace(QUICK_EXIT_URL);
}

type Step =
  | { kind: 'checking' }
  | { kind: 'address'; error?: string }
  | { kind: 'code'; address: string; error?: string }
  | { kind: 'list'; overview: ConsentOverview };

function dateText(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

function errorText(error: unknown, t: ShareText): string {
  return isApiError(error) && error.message ? error.message : t('myRequests.failed');
}

/** One request: who asked, when, how, its state, the looks, what was shared (never where), its note, the actions. */
function RequestItem({
  request,
  locale,
  busy,
  onAct,
  onReport,
}: {
  request: OverviewRequest;
  locale: Locale;
  busy: boolean;
  onAct: (action: RequestAction) => void;
  onReport: (reason: ReportReason) => void;
}) {
  const t = shareText(locale);
  const [reason, setReason] = useState<ReportReason>('unknown_requester');
  const name = request.requesterName || t('myRequests.someone');
  const titleId = `request-${request.id}`;
  const actions: RequestAction[] =
    request.state === 'open'
      ? ['decline']
      : request.state === 'sharing'
        ? ['stop', 'withdraw']
        : request.state === 'stopped'
          ? ['withdraw']
          : [];
  return (
    <li className="recipient__panel" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('myRequests.askedBy', { name })}</h3>
      <p>
        {t('myRequests.askedOn', {
          date: dateText(request.askedAt, locale),
          channel: t(`myRequests.channels.${request.channel}`),
        })}
      </p>
      <p>
        <strong>{t(`myRequests.states.${request.state}`)}</strong>
        {request.liveUntil && <> · {t('myRequests.liveUntil', { time: dateText(request.liveUntil, locale) })}</>}
        {request.endedAt && <> · {t('myRequests.endedOn', { date: dateText(request.endedAt, locale) })}</>}
      </p>
      <p>
        {request.shared.positions > 0 && request.shared.lastAt
          ? t('myRequests.shared', {
              count: request.shared.positions,
              date: dateText(request.shared.lastAt, locale),
            })
          : t('myRequests.sharedNothing')}{' '}
        {request.looks.count > 0 && request.looks.lastAt
          ? t('myRequests.looks', { name, count: request.looks.count, date: dateText(request.looks.lastAt, locale) })
          : t('myRequests.looksNever', { name })}
      </p>
      {request.voiceNote && (
        <div className="recipient__voice">
          <p id={`${titleId}-voice`}>
            {t('myRequests.voiceNote', { name, duration: clockDuration(request.voiceNote.durationMs) })}
          </p>
          <audio
            controls
            preload="none"
            src={`/api/v1/my-requests/${encodeURIComponent(request.id)}/voice-note`}
            aria-labelledby={`${titleId}-voice`}
          />
          {request.voiceNote.text && <p>{request.voiceNote.text}</p>}
        </div>
      )}
      <div className="recipient__actions">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'withdraw' ? 'recipient__button recipient__button--danger' : 'recipient__button'}
            disabled={busy}
            onClick={() => onAct(action)}
          >
            {t(`myRequests.${action}`)}
          </button>
        ))}
      </div>
      <form
        className="recipient__actions"
        onSubmit={(event) => {
          event.preventDefault();
          onReport(reason);
        }}
      >
        <label htmlFor={`${titleId}-reason`}>{t('report.reason')}</label>
        <select
          id={`${titleId}-reason`}
          value={reason}
          onChange={(event) => setReason(event.target.value as ReportReason)}
        >
          {REPORT_REASONS.map((value) => (
            <option key={value} value={value}>
              {t(`report.reasons.${value}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="recipient__button" disabled={busy}>
          {t('myRequests.report')}
        </button>
      </form>
    </li>
  );
}

/**
 * "Who can see me": a recipient proves their number or email address with a code sent there, then sees every
 * request to it (open, or ended in the last 30 days) and stops any or all of them. Quick exit is always in view.
 */
export default function MyRequestsPage(props: RecipientPageProps) {
  const { locale, hydrated } = useRecipientPage(props);
  const t = shareText(locale);
  const [step, setStep] = useState<Step>({ kind: 'checking' });
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);

  // No session (or it ended): the address comes first. Anything else is said over the same form.
  const failedStep = (error: unknown): Step =>
    isApiError(error) && error.status === 401 ? { kind: 'address' } : { kind: 'address', error: errorText(error, t) };
  const load = () =>
    myRequestsApi.overview(locale).then(
      (overview) => setStep({ kind: 'list', overview }),
      (error: unknown) => setStep(failedStep(error)),
    );

  // Once the script runs: a session still open (a reload within its 15 minutes) shows the list again.
  useEffect(() => {
    if (!hydrated) return;
    let current = true;
    const answer = myRequestsApi.overview(locale);
    void answer.then(
      (overview) => current && setStep({ kind: 'list', overview }),
      (error: unknown) => current && setStep(failedStep(error)),
    );
    return () => {
      current = false;
    };
    // The texts follow the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, locale]);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setStatus(null);
    try {
      const said = await work();
      await load();
      setStatus(said);
    } catch (error) {
      if (isApiError(error) && error.status === 401) setStep({ kind: 'address', error: error.message });
      else setStatus(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await myRequestsApi.sendCode(address, locale);
      setCode('');
      setStep({ kind: 'code', address });
    } catch (error) {
      setStep({ kind: 'address', error: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const enterCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await myRequestsApi.enterCode(address, code, locale);
      await load();
    } catch (error) {
      setStep({ kind: 'code', address, error: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (step.kind === 'checking') {
    body = <p role="status">{t('myRequests.loading')}</p>;
  } else if (step.kind === 'address') {
    body = (
      <form method="post" className="recipient__panel" onSubmit={sendCode} noValidate>
        <label htmlFor="overview-address">{t('myRequests.addressLabel')}</label>
        <input
          id="overview-address"
          name="address"
          type="text"
          inputMode="email"
          autoComplete="email"
          required
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          aria-describedby="overview-address-hint"
          aria-invalid={step.error ? true : undefined}
        />
        <p id="overview-address-hint" className="recipient__muted">
          {t('myRequests.addressHint')}
        </p>
        {step.error && <p role="alert">{step.error}</p>}
        <div className="recipient__actions">
          <button type="submit" className="recipient__button recipient__button--primary" disabled={busy || !hydrated}>
            {busy ? t('myRequests.sending') : t('myRequests.sendCode')}
          </button>
        </div>
      </form>
    );
  } else if (step.kind === 'code') {
    body = (
      <form method="post" className="recipient__panel" onSubmit={enterCode} noValidate>
        <p role="status">{t('myRequests.codeSent', { address: step.address })}</p>
        <label htmlFor="overview-code">{t('myRequests.codeLabel')}</label>
        <input
          id="overview-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.target.value.trim())}
          aria-invalid={step.error ? true : undefined}
        />
        {step.error && <p role="alert">{step.error}</p>}
        <div className="recipient__actions">
          <button type="submit" className="recipient__button recipient__button--primary" disabled={busy}>
            {t('myRequests.checkCode')}
          </button>
          <button type="button" className="recipient__button" onClick={() => setStep({ kind: 'address' })}>
            {t('myRequests.otherAddress')}
          </button>
        </div>
      </form>
    );
  } else {
    const { overview } = step;
    body = (
      <>
        <p className="recipient__muted">
          {t('myRequests.sessionNote', { time: dateText(overview.sessionEndsAt, locale) })}
        </p>
        <div role="status">{status}</div>
        <section aria-labelledby="overview-list-title">
          <h2 id="overview-list-title">{t('myRequests.listTitle')}</h2>
          {overview.requests.length === 0 ? (
            <p>{t('myRequests.none')}</p>
          ) : (
            <ul className="recipient__requests">
              {overview.requests.map((request) => (
                <RequestItem
                  key={request.id}
                  request={request}
                  locale={locale}
                  busy={busy}
                  onAct={(action) =>
                    void run(async () => {
                      await myRequestsApi.act(request.id, action);
                      return t('myRequests.actionDone');
                    })
                  }
                  onReport={(reason) =>
                    void run(async () => {
                      await myRequestsApi.report(request.id, reason);
                      return t('myRequests.reported');
                    })
                  }
                />
              ))}
            </ul>
          )}
          <p className="recipient__muted">{t('myRequests.olderNote')}</p>
        </section>
        <section className="recipient__panel" aria-labelledby="overview-all-title">
          <h2 id="overview-all-title">{t('myRequests.allTitle')}</h2>
          <p id="overview-stop-hint">{t('myRequests.stopAllHint')}</p>
          <button
            type="button"
            className="recipient__button recipient__button--primary"
            aria-describedby="overview-stop-hint"
            disabled={busy}
            onClick={() => void run(async () => t('myRequests.stoppedAll', await myRequestsApi.stopEverything()))}
          >
            {t('myRequests.stopAll')}
          </button>
          <p id="overview-erase-hint">{t('myRequests.eraseAllHint')}</p>
          <button
            type="button"
            className="recipient__button recipient__button--danger"
            aria-describedby="overview-erase-hint"
            disabled={busy}
            onClick={() => void run(async () => t('myRequests.erasedAll', await myRequestsApi.eraseEverything()))}
          >
            {t('myRequests.eraseAll')}
          </button>
          <p id="overview-opt-out-hint">{t('myRequests.optOutHint')}</p>
          <button
            type="button"
            className="recipient__button"
            aria-describedby="overview-opt-out-hint"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                await myRequestsApi.optOut();
                return t('myRequests.optedOut');
              })
            }
          >
            {t('myRequests.optOut')}
          </button>
        </section>
      </>
    );
  }

  return (
    <RecipientPageFrame
      locale={locale}
      hydrated={hydrated}
      titleId="my-requests-title"
      title={t('myRequests.title')}
      lead={t('myRequests.lead')}
      overviewLink={false}
    >
      {/* Always in view (sticky); a plain link before the script runs, which still leaves at once. */}
      <div className="recipient__quick-exit">
        <a
          href={QUICK_EXIT_URL}
          rel="noreferrer"
          className="recipient__button recipient__button--danger"
          aria-describedby="quick-exit-hint"
          onClick={(event) => {
            event.preventDefault();
            quickExit();
          }}
        >
          {t('myRequests.quickExit')}
        </a>
        <span id="quick-exit-hint" className="recipient__visually-hidden">
          {t('myRequests.quickExitHint')}
        </span>
      </div>
      {body}
    </RecipientPageFrame>
  );
}
