import { lazy, Suspense, useEffect, useState } from 'react';
import { DbipAttribution } from '@kabari/shared/geo/dbip-attribution';
import { positionAddress } from '@kabari/shared/geo/place-address';
import { recipientClock } from '../../lib/recipient-time';
import { shareText } from '../../lib/share-text';
import { shareApi } from '../../lib/share-api';
import { readSummary, recipientPath, sharePrecisePosition, type ShareSummary } from '../../lib/share-flow';
import { LinkUnavailable } from '../../components/link-unavailable';
import { RecipientPageFrame } from '../../components/recipient-page-frame';
import { useRecipientLink, type RecipientPageProps } from '../../lib/use-link';
import { outcomeOf, SharingEnded, StopSharing, type SharingOutcome } from '../../components/stop-sharing';
import { useLiveSharing, type LiveEndReason } from './use-live-sharing';
import { useScreenWakeLock } from './use-screen-wake-lock';
import { WhoLooked } from './who-looked';
import '../../components/recipient-pages.css';

const LIVE_CHOICES = [15, 60, 480] as const;

// The recorder comes with its own script when the page shows it: the page itself stays as light as before.
const VoiceReply = lazy(() => import('./voice-reply'));

/** The thank-you page: what was shared with whom, live sharing for a while, Stop sharing, Stop and erase. */
export default function SharePage(props: RecipientPageProps) {
  const { locale, params, token, load, update, hydrated, navigate } = useRecipientLink(props);
  const t = shareText(locale);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // Set when Stop sharing or Stop and erase answered on this page.
  const [ended, setEnded] = useState<SharingOutcome | null>(null);
  // False while on or never started; true when it ended at its time; a reason when the browser ended it.
  const [liveEnded, setLiveEnded] = useState<boolean | LiveEndReason>(false);

  // Permission given again after it ended live sharing: the page says live sharing can start again.
  const [locationBack, setLocationBack] = useState(false);
  useEffect(() => {
    if (typeof liveEnded !== 'string' || liveEnded === 'silent') return;
    if (typeof navigator === 'undefined' || !navigator.permissions?.query) return;
    let current = true;
    let status: PermissionStatus | undefined;
    const changed = () => setLocationBack(status?.state !== 'denied');
    navigator.permissions.query({ name: 'geolocation' }).then(
      (answer) => {
        if (!current) return;
        status = answer;
        answer.addEventListener('change', changed);
      },
      // Not every browser answers for geolocation; the page's text already says how to restart.
      () => undefined,
    );
    return () => {
      current = false;
      status?.removeEventListener('change', changed);
    };
  }, [liveEnded]);

  const link = load.kind === 'ready' ? load.link : null;

  // Share tapped before the consent page's script ran: the server recorded the approximate place and sent the
  // recipient here with `locate=1`; now that the script runs, the browser is asked for the position as well.
  const locate = hydrated && params.get('locate') === '1' && token !== null && link?.state === 'sharing';
  useEffect(() => {
    if (!locate || !token) return;
    const summary: ShareSummary = readSummary(token) ??
      props.shared ?? {
        approximateAddress: null,
        approximatePlace: null,
        approximateKnown: true,
        preciseAccuracy: null,
      };
    sharePrecisePosition(token, locale, summary)
      .then((failedPath) => navigate(failedPath ?? recipientPath('share', locale, { token }), { replace: true }))
      .catch(() => setFailed(true));
    // Once per page: the address no longer asks after the navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locate]);
  const liveUntil =
    link?.state === 'sharing' && link.liveUntil && new Date(link.liveUntil) > new Date() ? link.liveUntil : null;
  const { waiting } = useLiveSharing(token, liveUntil, (reason) => {
    setLiveEnded(reason ?? true);
    setLocationBack(false);
    update({ liveUntil: null });
  });
  // On by default while live: a phone whose screen turns off stops giving positions. The recipient may turn it off.
  const [keepScreenOn, setKeepScreenOn] = useState(true);
  const screenLock = useScreenWakeLock(liveUntil !== null && keepScreenOn);

  const startLive = (token: string, minutes: (typeof LIVE_CHOICES)[number]) => {
    setBusy(true);
    setFailed(false);
    shareApi
      .live(token, minutes)
      .then((answer) => {
        setLiveEnded(false);
        setLocationBack(false);
        update({ liveUntil: answer.liveUntil });
      })
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  };

  let body;
  if (load.kind === 'checking') {
    body = <p role="status">{t('share.checking')}</p>;
  } else if (!token || !link) {
    body = <LinkUnavailable failed={load.kind === 'error'} />;
  } else if (ended || link.state !== 'sharing') {
    body = (
      <SharingEnded outcome={ended ?? outcomeOf(link.state)}>
        <p>
          <a href={recipientPath('enterLink', locale, { token })}>{t('share.back')}</a>
        </p>
      </SharingEnded>
    );
  } else {
    const name = link.requesterName;
    // Kept in this tab once the page's script runs; after the plain form's Share, the server's own account of it.
    const summary = (hydrated ? readSummary(token) : null) ?? props.shared ?? null;
    const approximateAddress = summary
      ? positionAddress({ address: summary.approximateAddress, place: summary.approximatePlace }, locale)
      : null;
    body = (
      <>
        <section className="recipient__card" aria-labelledby="shared-title">
          <h2 id="shared-title">{t('share.sharedWith', { name })}</h2>
          <ul>
            {summary && !summary.approximateKnown && <li>{t('share.sharedApproximateUnknown')}</li>}
            {link.shared.approximate && (
              <li>
                {approximateAddress
                  ? t('share.sharedApproximate', { address: approximateAddress })
                  : t('share.sharedApproximateDone')}
              </li>
            )}
            {link.shared.precise && (
              <li>
                {summary?.preciseAccuracy != null
                  ? t('share.sharedPrecise', { meters: summary.preciseAccuracy })
                  : t('share.sharedPreciseDone')}
              </li>
            )}
            {!link.shared.approximate && !link.shared.precise && <li>{t('share.sharedNothing')}</li>}
          </ul>
          {hydrated && <WhoLooked token={token} name={name} locale={locale} t={t} />}
          {link.shared.approximate && (
            <p className="recipient__small">
              <DbipAttribution>{t('share.attribution')}</DbipAttribution>
            </p>
          )}
        </section>

        <section className="recipient__card" aria-labelledby="live-title">
          <h2 id="live-title">{t('share.liveTitle')}</h2>
          <p>{t('share.liveText', { name })}</p>
          <p className="recipient__live" role="status" aria-live="polite">
            {liveUntil
              ? t('share.liveOn', { time: recipientClock(liveUntil, locale, !hydrated) })
              : liveEnded === true
                ? t('share.liveEnded')
                : liveEnded === 'silent'
                  ? t('share.liveSilent', { name })
                  : liveEnded
                    ? t('share.liveStopped', { name, reason: t(`locationFailed.errors.${liveEnded}`) })
                    : ''}
          </p>
          {liveUntil && (
            <>
              <p className="recipient__small">{t('share.liveKeepOpen')}</p>
              <p className="recipient__small">{t('share.liveLockPauses')}</p>
              {screenLock.supported && (
                <label className="recipient__switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={keepScreenOn}
                    onChange={(event) => setKeepScreenOn(event.target.checked)}
                  />
                  {t('share.keepScreenOn')}
                </label>
              )}
              {screenLock.refused && (
                <p className="recipient__small" role="status">
                  {t('share.keepScreenOnRefused')}
                </p>
              )}
            </>
          )}
          {failed && <p role="alert">{t('enterLink.error')}</p>}
          {!liveUntil && liveEnded !== false && liveEnded !== true && locationBack && (
            <p className="recipient__live" role="status">
              {t('share.liveLocationBack')}
            </p>
          )}
          {liveUntil && waiting && (
            <p className="recipient__live" role="alert">
              {t('share.liveWaiting', { reason: t(`locationFailed.errors.${waiting}`) })}
            </p>
          )}
          <div className="recipient__actions">
            {LIVE_CHOICES.map((minutes) => (
              <button
                key={minutes}
                type="button"
                className="recipient__button"
                disabled={busy || !hydrated}
                aria-pressed={false}
                onClick={() => startLive(token, minutes)}
              >
                {t(`share.live${minutes}`)}
              </button>
            ))}
          </div>
        </section>

        {hydrated && link.state === 'sharing' && (
          <Suspense fallback={null}>
            <VoiceReply token={token} name={name} locale={locale} reply={link.voiceReply} />
          </Suspense>
        )}

        <StopSharing
          token={token}
          eraseConfirmText={t('share.eraseConfirmText', { name })}
          primary
          disabled={busy}
          onEnded={(outcome) => {
            setEnded(outcome);
            // The live watch ends with the window; an erased link has nothing shared any more.
            update({
              liveUntil: null,
              ...((outcome === 'stopped' || outcome === 'withdrawn') && { state: outcome }),
              ...(outcome === 'ended' && { state: 'cancelled' as const }),
              ...(outcome === 'withdrawn' && { shared: { approximate: false, precise: false } }),
            });
          }}
        />
      </>
    );
  }

  return (
    <RecipientPageFrame locale={locale} hydrated={hydrated} titleId="share-title" title={t('share.title')}>
      {body}
    </RecipientPageFrame>
  );
}
