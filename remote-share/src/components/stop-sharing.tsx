import { useId, useState, type ReactNode } from 'react';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { useShareText } from '../lib/share-text';
import { forgetSummary } from '../lib/share-flow';
import { isApiError } from '@kabari/shared/api/api-error';
import { shareApi, type LinkState } from '../lib/share-api';
import './recipient-pages.css';

/**
 * How sharing through the link ended: stopped, withdrawn (stopped and erased), ended by the requester's side (the
 * request cancelled, or the requester's account suspended), or it was not on at all.
 */
export type SharingOutcome = 'stopped' | 'withdrawn' | 'ended' | 'not-sharing';

/** The outcome a link's state stands for, once it is no longer sharing. */
export function outcomeOf(state: LinkState): SharingOutcome {
  if (state === 'cancelled') return 'ended';
  return state === 'stopped' || state === 'withdrawn' ? state : 'not-sharing';
}

/** What the page says once sharing has ended; `children` follow (the thank-you page's way back). */
export function SharingEnded({ outcome, children }: { outcome: SharingOutcome; children?: ReactNode }) {
  const t = useShareText();
  const id = useId();
  const text = {
    stopped: t('share.stopped'),
    withdrawn: t('share.withdrawn'),
    ended: t('share.ended'),
    'not-sharing': t('share.notSharing'),
  };
  return (
    <section className="recipient__notice" role="status" aria-labelledby={id}>
      <h2 id={id}>{text[outcome]}</h2>
      {children}
    </section>
  );
}

interface StopSharingProps {
  token: string;
  /** A heading and text above the buttons, where the page has not already said why they are there. */
  intro?: { title: string; text: string };
  /** What Stop and erase does, in the words the page's reader needs. */
  eraseConfirmText: string;
  /** Stop sharing is the page's main action (not where Try again is). */
  primary?: boolean;
  /** Another of the page's actions is under way. */
  disabled?: boolean;
  onEnded: (outcome: SharingOutcome) => void;
}

/**
 * Stop sharing and Stop and erase (asked first), on the thank-you page and on the location-failed page: the
 * approximate place may be shared even when the browser gave no position.
 */
export function StopSharing({ token, intro, eraseConfirmText, primary, disabled, onEnded }: StopSharingProps) {
  const t = useShareText();
  const titleId = useId();
  const eraseTitleId = useId();
  const [confirmErase, setConfirmErase] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // These need the page's script: until it runs (a page the server rendered), they wait, visibly.
  const hydrated = useHydrated();
  const blocked = busy || Boolean(disabled) || !hydrated;

  const run = (call: (token: string) => Promise<{ state: LinkState }>) => {
    setBusy(true);
    setFailed(false);
    call(token)
      .then((answer) => {
        if (answer.state === 'withdrawn') forgetSummary(token);
        onEnded(outcomeOf(answer.state));
      })
      // 409: nothing is being shared through this link (never agreed to, or already stopped).
      .catch((error: unknown) => {
        if (isApiError(error) && error.status === 409) onEnded('not-sharing');
        else setFailed(true);
      })
      .finally(() => setBusy(false));
  };

  const EraseHeading = intro ? 'h3' : 'h2';
  return (
    <section
      className="recipient__card"
      {...(intro ? { 'aria-labelledby': titleId } : { 'aria-label': t('share.stop') })}
    >
      {intro && <h2 id={titleId}>{intro.title}</h2>}
      {failed && <p role="alert">{t('enterLink.error')}</p>}
      {confirmErase ? (
        <div role="group" aria-labelledby={eraseTitleId}>
          <EraseHeading id={eraseTitleId}>{t('share.eraseConfirmTitle')}</EraseHeading>
          <p>{eraseConfirmText}</p>
          <div className="recipient__actions">
            <button
              type="button"
              className="recipient__button recipient__button--danger"
              disabled={blocked}
              onClick={() => run(shareApi.withdraw)}
            >
              {t('share.eraseConfirm')}
            </button>
            <button type="button" className="recipient__button" onClick={() => setConfirmErase(false)}>
              {t('share.eraseCancel')}
            </button>
          </div>
        </div>
      ) : (
        <>
          {intro && <p>{intro.text}</p>}
          <div className="recipient__actions">
            <button
              type="button"
              className={primary ? 'recipient__button recipient__button--primary' : 'recipient__button'}
              disabled={blocked}
              onClick={() => run(shareApi.stop)}
            >
              {t('share.stop')}
            </button>
            <button
              type="button"
              className="recipient__button recipient__button--danger"
              disabled={blocked}
              onClick={() => setConfirmErase(true)}
            >
              {t('share.erase')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
