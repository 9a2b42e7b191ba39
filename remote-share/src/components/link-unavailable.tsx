import { useShareText } from '../lib/share-text';

/** The link could not be read: unknown or expired (`failed` false), or the server did not answer. */
export function LinkUnavailable({ failed }: { failed: boolean }) {
  const t = useShareText();
  return (
    <section className="recipient__notice recipient__notice--alert" aria-labelledby="link-state-title" role="alert">
      <h2 id="link-state-title">{failed ? t('enterLink.error') : t('enterLink.invalidTitle')}</h2>
      {!failed && <p>{t('enterLink.invalidText')}</p>}
    </section>
  );
}
