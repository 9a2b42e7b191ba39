import { useState } from 'react';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { shareText, useShareText } from '../../lib/share-text';
import { OptOutPanel, ReportPanel } from './opt-out-and-report';
import { shareApi, type LinkInfo } from '../../lib/share-api';
import { recipientPath, shareLocation } from '../../lib/share-flow';
import { FormActionButton } from '../../components/form-action-button';
import { LinkUnavailable } from '../../components/link-unavailable';
import { RecipientPageFrame } from '../../components/recipient-page-frame';
import { VoiceNotePlayer } from '../../components/voice-note-player';
import { useRecipientLink, type RecipientPageProps } from '../../lib/use-link';
import { recipientDateTime } from '../../lib/recipient-time';
import '../../components/recipient-pages.css';

type Panel = 'none' | 'opt-out' | 'report';

/** A final state of the link, said plainly. */
function StateNotice({ title, text }: { title: string; text: string }) {
  return (
    <section className="recipient__notice" aria-labelledby="link-state-title" role="status">
      <h2 id="link-state-title">{title}</h2>
      <p>{text}</p>
    </section>
  );
}

interface ConsentFormProps {
  token: string;
  link: LinkInfo;
  locale: Locale;
  navigate: NonNullable<RecipientPageProps['navigate']>;
  onDeclined: () => void;
  /** The server's words when Share or Decline, sent without the page's script, was refused. */
  failure?: string;
}

/**
 * Share and Decline. A plain form too: sent before (or without) the page's script, the server declines, or records
 * the approximate place and shows the thank-you page; with the script, Share also asks the browser for the position.
 */
function ConsentForm({ token, link, locale, navigate, onDeclined, failure }: ConsentFormProps) {
  const t = useShareText();
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<'ask' | 'sharing' | 'locating' | 'declining' | 'error'>(failure ? 'error' : 'ask');
  const busy = phase === 'sharing' || phase === 'locating' || phase === 'declining';

  const share = () => {
    setPhase('sharing');
    shareLocation(token, locale, () => setPhase('locating'))
      .then((next) => navigate(next))
      .catch(() => setPhase('error'));
  };
  const decline = () => {
    setPhase('declining');
    shareApi
      .decline(token)
      .then(onDeclined)
      .catch(() => setPhase('error'));
  };

  return (
    <section className="recipient__consent" aria-labelledby="consent-title">
      <h2 id="consent-title" className="recipient__asks">
        {t('enterLink.asks', { name: link.requesterName })}
      </h2>
      <h3>{t('enterLink.whatTitle')}</h3>
      <ul>
        <li>{t('enterLink.whatApproximate')}</li>
        <li>{t('enterLink.whatPrecise')}</li>
      </ul>
      <p>{t('enterLink.howLong')}</p>
      <p>{t('enterLink.control')}</p>
      <p className="recipient__muted">
        {t('enterLink.expires', { time: recipientDateTime(link.expiresAt, locale, !hydrated) })}
      </p>
      {phase === 'error' && <p role="alert">{failure ?? t('enterLink.error')}</p>}
      {(phase === 'sharing' || phase === 'locating') && (
        <p role="status">{phase === 'locating' ? t('enterLink.locating') : t('enterLink.sharing')}</p>
      )}
      <form method="post" action={recipientPath('enterLink', locale, { token })} className="recipient__actions">
        <FormActionButton action="share" primary onAction={share} disabled={busy}>
          {t('enterLink.share')}
        </FormActionButton>
        <FormActionButton action="decline" onAction={decline} disabled={busy}>
          {t('enterLink.decline')}
        </FormActionButton>
      </form>
    </section>
  );
}

/** The recipient's first page: an honest consent screen (who asks, what would be shared, Share or Decline). */
export default function EnterLinkPage(props: RecipientPageProps) {
  const { params, locale, token, load, update, navigate, hydrated } = useRecipientLink(props);
  const t = shareText(locale);
  const { failure } = props;
  // Until the recipient picks one, the address says which panel is open: the message's opt-out link
  // (`action=opt-out`), the openers' plain forms (`action=report`), a form's answer (`done=…`) or a refused form. The
  // query string may be known only once hydrated, so this is not a state's initial value.
  const [chosenPanel, setPanel] = useState<Panel | null>(null);
  const asked = failure?.action ?? params.get('done') ?? params.get('action');
  const panel: Panel = chosenPanel ?? (asked === 'opt-out' || asked === 'report' ? asked : 'none');
  const done = chosenPanel === null && (params.get('done') === 'opt-out' || params.get('done') === 'report');
  const pagePath = localizePath(routePaths.enterLink, locale);

  let body;
  if (load.kind === 'checking') {
    body = <p role="status">{t('enterLink.checking')}</p>;
  } else if (load.kind === 'invalid' || load.kind === 'error' || !token) {
    body = <LinkUnavailable failed={load.kind === 'error'} />;
  } else {
    const { link } = load;
    const name = link.requesterName;
    const main = {
      open: (
        <ConsentForm
          token={token}
          link={link}
          locale={locale}
          navigate={navigate}
          onDeclined={() => update({ state: 'declined' })}
          failure={
            failure && (failure.action === 'share' || failure.action === 'decline') ? failure.message : undefined
          }
        />
      ),
      expired: <StateNotice title={t('enterLink.invalidTitle')} text={t('enterLink.invalidText')} />,
      declined: <StateNotice title={t('enterLink.declinedTitle')} text={t('enterLink.declinedText', { name })} />,
      stopped: <StateNotice title={t('enterLink.stoppedTitle')} text={t('enterLink.stoppedText')} />,
      // Stopped and erased: the link no longer says who asked (the server no longer tells), only that it ended.
      withdrawn: <StateNotice title={t('enterLink.withdrawnTitle')} text={t('enterLink.withdrawnText')} />,
      cancelled: <StateNotice title={t('enterLink.cancelledTitle')} text={t('enterLink.cancelledText', { name })} />,
      // The requester deleted the request: opt-out and report below still work.
      deleted: <StateNotice title={t('enterLink.deletedTitle')} text={t('enterLink.deletedText')} />,
      sharing: (
        <section className="recipient__notice" aria-labelledby="link-state-title">
          <h2 id="link-state-title">{t('enterLink.sharingTitle', { name })}</h2>
          <p>
            <a href={recipientPath('share', locale, { token })}>{t('enterLink.sharingLink')}</a>
          </p>
        </section>
      ),
    }[link.state];
    body = (
      <>
        {link.voiceNote && panel !== 'opt-out' && (
          <VoiceNotePlayer token={token} name={name} voiceNote={link.voiceNote} />
        )}
        {panel === 'opt-out' && link.canOptOut ? (
          <OptOutPanel
            token={token}
            locale={locale}
            done={done}
            failure={failure?.action === 'opt-out' ? failure.message : undefined}
            onCancel={() => setPanel('none')}
            onDone={() => link.state === 'open' && update({ state: 'declined' })}
          />
        ) : (
          main
        )}
        {panel === 'report' && (
          <ReportPanel
            token={token}
            locale={locale}
            done={done}
            failure={failure?.action === 'report' ? failure.message : undefined}
            onClose={() => setPanel('none')}
          />
        )}
        {panel !== 'report' && (
          <section className="recipient__more" aria-labelledby="more-title">
            <h2 id="more-title">{t('enterLink.moreTitle')}</h2>
            {/* Openers as a plain form too: without the page's script, the server shows the page with the panel. */}
            <form method="get" action={pagePath}>
              <input type="hidden" name="token" value={token} />
              {link.canOptOut ? (
                panel !== 'opt-out' && (
                  <button
                    type="submit"
                    name="action"
                    value="opt-out"
                    className="recipient__link-button"
                    onClick={(event) => {
                      event.preventDefault();
                      setPanel('opt-out');
                    }}
                  >
                    {t('enterLink.optOutOpen')}
                  </button>
                )
              ) : (
                <p>{t('enterLink.optOutNoTarget')}</p>
              )}
              <button
                type="submit"
                name="action"
                value="report"
                className="recipient__link-button"
                onClick={(event) => {
                  event.preventDefault();
                  setPanel('report');
                }}
              >
                {t('enterLink.reportOpen')}
              </button>
            </form>
          </section>
        )}
      </>
    );
  }

  return (
    <RecipientPageFrame
      locale={locale}
      hydrated={hydrated}
      titleId="enter-link-title"
      title={t('enterLink.title')}
      lead={t('enterLink.lead')}
    >
      {body}
    </RecipientPageFrame>
  );
}
