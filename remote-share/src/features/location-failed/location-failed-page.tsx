import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation, useNavigate, useSearchParams } from '@kabari/shared/routing/router';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { shareNamespace } from '../../i18n/share-namespace';
import { geolocationFailures, type GeolocationFailure } from '../consent/geolocation';
import { shareApi, ShareApiError } from '../consent/share-api';
import { shareLocation } from '../consent/share-flow';
import { tokenFrom } from '../consent/use-link';
import '../consent/recipient-pages.css';

type StopPhase = 'idle' | 'confirm-erase' | 'busy' | 'stopped' | 'withdrawn' | 'not-sharing' | 'error';

/**
 * Sharing may already be on (the approximate place was recorded at Share): Stop sharing and Stop and erase are
 * offered here too, not only on the thank-you page.
 */
function StopControls({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation(shareNamespace);
  const [phase, setPhase] = useState<StopPhase>('idle');
  const run = (call: () => Promise<unknown>, done: 'stopped' | 'withdrawn') => {
    setPhase('busy');
    call()
      .then(() => {
        setPhase(done);
        onDone();
      })
      // 409: nothing is being shared through this link (it was never agreed to, or already stopped).
      .catch((error: unknown) =>
        setPhase(error instanceof ShareApiError && error.status === 409 ? 'not-sharing' : 'error'),
      );
  };
  const result = { stopped: t('share.stopped'), withdrawn: t('share.withdrawn'), 'not-sharing': t('share.notSharing') };
  if (phase === 'stopped' || phase === 'withdrawn' || phase === 'not-sharing') {
    return (
      <section className="recipient__notice" role="status" aria-labelledby="stop-result">
        <h2 id="stop-result">{result[phase]}</h2>
      </section>
    );
  }
  return (
    <section className="recipient__card" aria-labelledby="stop-title">
      <h2 id="stop-title">{t('locationFailed.stopTitle')}</h2>
      {phase === 'error' && <p role="alert">{t('enterLink.error')}</p>}
      {phase === 'confirm-erase' ? (
        <div role="group" aria-labelledby="erase-title">
          <h3 id="erase-title">{t('share.eraseConfirmTitle')}</h3>
          <p>{t('locationFailed.eraseConfirmText')}</p>
          <div className="recipient__actions">
            <button
              type="button"
              className="recipient__button recipient__button--danger"
              onClick={() => run(() => shareApi.withdraw(token), 'withdrawn')}
            >
              {t('share.eraseConfirm')}
            </button>
            <button type="button" className="recipient__button" onClick={() => setPhase('idle')}>
              {t('share.eraseCancel')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <p>{t('locationFailed.stopText')}</p>
          <div className="recipient__actions">
            <button
              type="button"
              className="recipient__button"
              disabled={phase === 'busy'}
              onClick={() => run(() => shareApi.stop(token), 'stopped')}
            >
              {t('share.stop')}
            </button>
            <button
              type="button"
              className="recipient__button recipient__button--danger"
              disabled={phase === 'busy'}
              onClick={() => setPhase('confirm-erase')}
            >
              {t('share.erase')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** Spec §8's geolocation errors, and how to turn location on, with Try again; or stop sharing altogether. */
export default function LocationFailedPage() {
  const { t } = useTranslation(shareNamespace);
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const token = tokenFrom(params);
  const given = params.get('reason') as GeolocationFailure | null;
  const reason: GeolocationFailure = given && geolocationFailures.includes(given) ? given : 'failed';
  const [phase, setPhase] = useState<'idle' | 'retrying' | 'error'>('idle');
  const [ended, setEnded] = useState(false);

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
    <article className="recipient" data-remote="share" aria-labelledby="location-failed-title">
      <header className="recipient__intro">
        <h1 id="location-failed-title">{t('locationFailed.title')}</h1>
      </header>
      {/* The reason is in the query string: known only once hydrated. */}
      {hydrated && (
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
      {hydrated && !token && <p role="alert">{t('locationFailed.noToken')}</p>}
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
      {hydrated && token && <StopControls token={token} onDone={() => setEnded(true)} />}
    </article>
  );
}
