import { useEffect, useState } from 'react';
import { useSearchParams } from '@kabari/shared/routing/router';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { useTranslation } from 'react-i18next';
import { shareNamespace } from '../../i18n/share-namespace';
import './enter-link-page.css';

type LinkState = 'checking' | 'invalid';

/** The recipient's first page. Until the consent flow exists, every link is answered as invalid by the server. */
export default function EnterLinkPage() {
  const { t } = useTranslation(shareNamespace);
  const [params] = useSearchParams();
  const token = params.get('token') ?? params.get('t');
  const [answer, setAnswer] = useState<LinkState>('checking');
  // 'checking' until hydrated: the prerendered page cannot know the token, and hydration must match it.
  const state: LinkState = !useHydrated() ? 'checking' : token ? answer : 'invalid';

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    fetch(`/api/v1/share/links/${encodeURIComponent(token)}`, { signal: controller.signal })
      .then((response) => {
        if (!response.ok) setAnswer('invalid');
      })
      .catch(() => {
        if (!controller.signal.aborted) setAnswer('invalid');
      });
    return () => controller.abort();
  }, [token]);

  return (
    <article className="enter-link-page" data-remote="share" aria-labelledby="enter-link-title">
      {/* Always there, prerendered: the recipient first learns what this page is and that they decide. */}
      <header className="enter-link-page__intro">
        <h1 id="enter-link-title">{t('enterLink.title')}</h1>
        <p className="enter-link-page__lead">{t('enterLink.lead')}</p>
      </header>
      {state === 'checking' ? (
        <p role="status">{t('enterLink.checking')}</p>
      ) : (
        <section className="enter-link-page__state" aria-labelledby="enter-link-state" role="alert">
          <h2 id="enter-link-state">{t('enterLink.invalidTitle')}</h2>
          <p>{t('enterLink.invalidText')}</p>
        </section>
      )}
    </article>
  );
}
