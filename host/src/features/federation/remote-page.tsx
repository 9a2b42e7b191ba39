import { Component, lazy, memo, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RemoteName } from '@kabari/shared/config/runtime-config';
import { loadRemoteModule, resetRemote } from '../../lib/federation-remotes';

type PageModule = { default: ComponentType };

const lazyPages = new Map<string, ComponentType>();

/** One lazy component per remote page and attempt, so React keeps it across renders. */
function lazyRemotePage(remote: RemoteName, exposed: string, attempt: number): ComponentType {
  const key = `${remote}/${exposed}#${attempt}`;
  let page = lazyPages.get(key);
  if (!page) {
    page = lazy(() => loadRemoteModule<PageModule>(remote, exposed));
    lazyPages.set(key, page);
  }
  return page;
}

export function RemoteUnavailable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <section className="remote-unavailable" role="alert">
      <h1>{t('remoteUnavailable.title')}</h1>
      <p>{t('remoteUnavailable.description')}</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('retry')}
      </button>
    </section>
  );
}

export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="page-loading" role="status" aria-live="polite">
      {t('loading')}
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('[kabari] a remote failed to load', error);
  }

  override render() {
    return this.state.failed ? <RemoteUnavailable onRetry={this.props.onRetry} /> : this.props.children;
  }
}

/**
 * A page exposed by a remote. If the remote cannot be loaded, a translated fallback with a retry.
 * Memoised: on a prerendered page the route re-renders once hydrated (its guard can now read the
 * token), and an update reaching the page's Suspense boundary before the remote has loaded would make
 * React drop the prerendered HTML for the loading fallback.
 */
export const RemotePage = memo(function RemotePage({ remote, exposed }: { remote: RemoteName; exposed: string }) {
  const [attempt, setAttempt] = useState(0);
  const Page = lazyRemotePage(remote, exposed, attempt);
  const retry = () => {
    resetRemote(remote);
    setAttempt((value) => value + 1);
  };
  return (
    <RemoteErrorBoundary key={attempt} onRetry={retry}>
      <Suspense fallback={<PageLoading />}>
        {/* eslint-disable-next-line react-hooks/static-components -- cached per remote page and attempt in lazyPages */}
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
});
