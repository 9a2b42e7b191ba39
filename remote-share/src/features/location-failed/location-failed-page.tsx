import { useState } from 'react';
import { shareText } from '../../lib/share-text';
import { geolocationFailures, type GeolocationFailure } from '../../lib/geolocation';
import { shareLocation } from '../../lib/share-flow';
import { tokenFrom, useRecipientPage, type RecipientPageProps } from '../../lib/use-link';
import { RecipientPageFrame } from '../../components/recipient-page-frame';
import { SharingEnded, StopSharing, type SharingOutcome } from '../../components/stop-sharing';
import '../../components/recipient-pages.css';

/**
 * Why the browser gave no position (one of four messages), and how to turn location on, with Try again; or stop
 * sharing altogether.
 */
export default function LocationFailedPage(props: RecipientPageProps) {
  const { locale, params, addressKnown, hydrated, navigate } = useRecipientPage(props);
  const t = shareText(locale);
  const token = tokenFrom(params);
  const given = params.get('reason') as GeolocationFailure | null;
  const reason: GeolocationFailure = given && geolocationFailures.includes(given) ? given : 'failed';
  const [phase, setPhase] = useState<'idle' | 'retrying' | 'error'>('idle');
  // Once sharing is stopped there is nothing to try again.
  const [ended, setEnded] = useState<SharingOutcome | null>(null);

  const retry = () => {
    if (!token) return;
    setPhase('retrying');
    shareLocation(token, locale)
      .then((next) => {
        setPhase('idle');
        navigate(next, { replace: true });
      })
      .catch(() => setPhase('error'));
  };

  return (
    <RecipientPageFrame
      locale={locale}
      hydrated={hydrated}
      titleId="location-failed-title"
      title={t('locationFailed.title')}
    >
      {/* The reason is in the query string: known to the server's render, or once hydrated. */}
      {addressKnown && (
        <section className="recipient__notice recipient__notice--alert" role="alert" aria-labelledby="failure-reason">
          <h2 id="failure-reason">{t(`locationFailed.errors.${reason}`)}</h2>
          <p>{t('locationFailed.approximateNote')}</p>
        </section>
      )}
      <section className="recipient__card" aria-labelledby="how-title">
        <h2 id="how-title">{t('locationFailed.howTitle')}</h2>
        <h3>{t('locationFailed.androidTitle')}</h3>
        <ol>
          <li>{t('locationFailed.android1')}</li>
          <li>{t('locationFailed.android2')}</li>
        </ol>
        <h3>{t('locationFailed.iphoneTitle')}</h3>
        <ol>
          <li>{t('locationFailed.iphone1')}</li>
          <li>{t('locationFailed.iphone2')}</li>
          <li>{t('locationFailed.iphone3')}</li>
        </ol>
        <h3>{t('locationFailed.desktopTitle')}</h3>
        <ol>
          <li>{t('locationFailed.desktop1')}</li>
          <li>{t('locationFailed.desktop2')}</li>
        </ol>
      </section>
      {addressKnown && !token && <p role="alert">{t('locationFailed.noToken')}</p>}
      {phase === 'error' && <p role="alert">{t('enterLink.error')}</p>}
      {!ended && (
        <div className="recipient__actions">
          <button
            type="button"
            className="recipient__button recipient__button--primary"
            onClick={retry}
            disabled={!hydrated || !token || phase === 'retrying'}
          >
            {phase === 'retrying' ? t('locationFailed.retrying') : t('locationFailed.retry')}
          </button>
        </div>
      )}
      {addressKnown && token && ended && <SharingEnded outcome={ended} />}
      {addressKnown && token && !ended && (
        <StopSharing
          token={token}
          intro={{ title: t('locationFailed.stopTitle'), text: t('locationFailed.stopText') }}
          eraseConfirmText={t('locationFailed.eraseConfirmText')}
          disabled={phase === 'retrying'}
          onEnded={setEnded}
        />
      )}
    </RecipientPageFrame>
  );
}
