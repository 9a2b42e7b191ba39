import { useEffect, useState, type FormEvent } from 'react';
import { QUICK_EXIT_URL } from '@kabari/rules/quick-exit';
import { isApiError } from '@kabari/shared/api/api-error';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { clockDuration } from '@kabari/shared/voice/clock-duration';
import { FormActionButton } from '../../components/form-action-button';
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
import { recipientDateTime } from '../../lib/recipient-time';
import '../../components/recipient-pages.css';

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

type ServerView = NonNullable<RecipientPageProps['overview']>;

/** The step the server rendered (its forms work without the script); a prerendered page checks once hydrated. */
function initialStep(view: ServerView | undefined): Step {
  if (!view) return { kind: 'checking' };
  if (view.step === 'list') return { kind: 'list', overview: view.overview };
  if (view.step === 'code') return { kind: 'code', address: view.address, error: view.error };
  return { kind: 'address', error: view.error };
}

/**
 * What a plain form did, as the server's redirect says it (`done=…`, with the counts of Stop and Erase everything),
 * in the words the page's script would have used.
 */
function doneText(params: URLSearchParams, t: ShareText): string | null {
  const counts = { ended: Number(params.get('ended')) || 0, declined: Number(params.get('declined')) || 0 };
  switch (params.get('done')) {
    case 'stop-everything':
      return t('myRequests.stoppedAll', counts);
    case 'erase-everything':
      return t('myRequests.erasedAll', counts);
    case 'opt-out':
      return t('myRequests.optedOut');
    case 'report':
      return t('myRequests.reported');
    case 'decline':
    case 'stop':
    case 'withdraw':
      return t('myRequests.actionDone');
    default:
      return null;
  }
}

function errorText(error: unknown, t: ShareText): string {
  return isApiError(error) && error.message ? error.message : t('myRequests.failed');
}

/** One request: who asked, when, how, its state, the looks, what was shared (never where), its note, the actions. */
function RequestItem({
  request,
  locale,
  pagePath,
  inUtc,
  busy,
  onAct,
  onReport,
}: {
  request: OverviewRequest;
  locale: Locale;
  /** Where the plain forms post: the page itself. */
  pagePath: string;
  inUtc: boolean;
  busy: boolean;
  onAct: (action: RequestAction) => void;
  onReport: (reason: ReportReason) => void;
}) {
  const t = shareText(locale);
  const date = (iso: string) => recipientDateTime(iso, locale, inUtc);
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
          date: date(request.askedAt),
          channel: t(`myRequests.channels.${request.channel}`),
        })}
      </p>
      <p>
        <strong>{t(`myRequests.states.${request.state}`)}</strong>
        {request.liveUntil && <> · {t('myRequests.liveUntil', { time: date(request.liveUntil) })}</>}
        {request.endedAt && <> · {t('myRequests.endedOn', { date: date(request.endedAt) })}</>}
      </p>
      <p>
        {request.shared.positions > 0 && request.shared.lastAt
          ? t('myRequests.shared', {
              count: request.shared.positions,
              date: date(request.shared.lastAt),
            })
          : t('myRequests.sharedNothing')}{' '}
        {request.looks.count > 0 && request.looks.lastAt
          ? t('myRequests.looks', { name, count: request.looks.count, date: date(request.looks.lastAt) })
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
      {actions.length > 0 && (
        <form method="post" action={pagePath} className="recipient__actions">
          <input type="hidden" name="request" value={request.id} />
          {actions.map((action) => (
            <FormActionButton
              key={action}
              action={action}
              danger={action === 'withdraw'}
              disabled={busy}
              onAction={() => onAct(action)}
            >
              {t(`myRequests.${action}`)}
            </FormActionButton>
          ))}
        </form>
      )}
      <form
        method="post"
        action={pagePath}
        className="recipient__actions"
        onSubmit={(event) => {
          event.preventDefault();
          onReport(reason);
        }}
      >
        <input type="hidden" name="request" value={request.id} />
        <label htmlFor={`${titleId}-reason`}>{t('report.reason')}</label>
        <select
          id={`${titleId}-reason`}
          name="reason"
          value={reason}
          onChange={(event) => setReason(event.target.value as ReportReason)}
        >
          {REPORT_REASONS.map((value) => (
            <option key={value} value={value}>
              {t(`report.reasons.${value}`)}
            </option>
          ))}
        </select>
        <button type="submit" name="action" value="report" className="recipient__button" disabled={busy}>
          {t('myRequests.report')}
        </button>
      </form>
    </li>
  );
}

/**
 * "Who can see me": a recipient proves their number or email address with a code sent there, then sees every
 * request to it (open, or ended in the last 30 days) and stops any or all of them. Quick exit is always in view.
 * Every step is a plain form posting to the page itself (server/src/web/overview-forms.ts), so that it works without
 * the script; with the script the page does the same through the API and stays.
 */
export default function MyRequestsPage(props: RecipientPageProps) {
  const { locale, hydrated, params } = useRecipientPage(props);
  const t = shareText(locale);
  const view = props.overview;
  const pagePath = localizePath(routePaths.myRequests, locale);
  const [step, setStep] = useState<Step>(() => initialStep(view));
  const [address, setAddress] = useState(view?.step === 'address' || view?.step === 'code' ? (view.address ?? '') : '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(() =>
    view?.step === 'list' ? (view.error ?? doneText(params, t)) : null,
  );

  // No session (or it ended): the address comes first. Anything else is said over the same form.
  const failedStep = (error: unknown): Step =>
    isApiError(error) && error.status === 401 ? { kind: 'address' } : { kind: 'address', error: errorText(error, t) };
  const load = () =>
    myRequestsApi.overview(locale).then(
      (overview) => setStep({ kind: 'list', overview }),
      (error: unknown) => setStep(failedStep(error)),
    );

  // Once the script runs: a session still open (a reload within its 15 minutes) shows the list again. A page the
  // server rendered for this browser already shows where it is.
  useEffect(() => {
    if (!hydrated || view) return;
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
      <form method="post" action={pagePath} className="recipient__panel" onSubmit={sendCode} noValidate>
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
          <button
            type="submit"
            name="action"
            value="send-code"
            className="recipient__button recipient__button--primary"
            disabled={busy}
          >
            {busy ? t('myRequests.sending') : t('myRequests.sendCode')}
          </button>
        </div>
      </form>
    );
  } else if (step.kind === 'code') {
    body = (
      <form method="post" action={pagePath} className="recipient__panel" onSubmit={enterCode} noValidate>
        <p role="status">{t('myRequests.codeSent', { address: step.address })}</p>
        {/* Without the script the code is checked against the address it was sent to, which the server needs again. */}
        <input type="hidden" name="address" value={step.address} />
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
          <button
            type="submit"
            name="action"
            value="enter-code"
            className="recipient__button recipient__button--primary"
            disabled={busy}
          >
            {t('myRequests.checkCode')}
          </button>
          {/* The page again: without a session, the address step. */}
          <a
            href={pagePath}
            className="recipient__button"
            onClick={(event) => {
              event.preventDefault();
              setStep({ kind: 'address' });
            }}
          >
            {t('myRequests.otherAddress')}
          </a>
        </div>
      </form>
    );
  } else {
    const { overview } = step;
    body = (
      <>
        <p className="recipient__muted">
          {t('myRequests.sessionNote', { time: recipientDateTime(overview.sessionEndsAt, locale, !hydrated) })}
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
                  pagePath={pagePath}
                  inUtc={!hydrated}
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
          <form method="post" action={pagePath}>
            <p id="overview-stop-hint">{t('myRequests.stopAllHint')}</p>
            <FormActionButton
              action="stop-everything"
              primary
              describedBy="overview-stop-hint"
              disabled={busy}
              onAction={() => void run(async () => t('myRequests.stoppedAll', await myRequestsApi.stopEverything()))}
            >
              {t('myRequests.stopAll')}
            </FormActionButton>
            <p id="overview-erase-hint">{t('myRequests.eraseAllHint')}</p>
            <FormActionButton
              action="erase-everything"
              danger
              describedBy="overview-erase-hint"
              disabled={busy}
              onAction={() => void run(async () => t('myRequests.erasedAll', await myRequestsApi.eraseEverything()))}
            >
              {t('myRequests.eraseAll')}
            </FormActionButton>
            <p id="overview-opt-out-hint">{t('myRequests.optOutHint')}</p>
            <FormActionButton
              action="opt-out"
              describedBy="overview-opt-out-hint"
              disabled={busy}
              onAction={() =>
                void run(async () => {
                  await myRequestsApi.optOut();
                  return t('myRequests.optedOut');
                })
              }
            >
              {t('myRequests.optOut')}
            </FormActionButton>
          </form>
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
      {/* Always in view (sticky). Without the script, a plain link to the server, which ends the session and sends
          the browser on to the same neutral page. */}
      <div className="recipient__quick-exit">
        <a
          href={`${pagePath}/exit`}
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
