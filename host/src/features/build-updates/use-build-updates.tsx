import { useEffect } from 'react';
import i18n from 'i18next';
import { showToast } from '@kabari/shared/ui/toasts';
import { fetchLatestBuildId, reloadForNewBuild, runningBuildId, watchForNewBuild } from './latest-build';

function offerReload(): void {
  import('./new-build-notice')
    .then(({ NewBuildNotice }) =>
      showToast(
        'info',
        <NewBuildNotice
          text={i18n.t('buildUpdate.available', { ns: 'host' })}
          action={i18n.t('buildUpdate.reload', { ns: 'host' })}
          onReload={() => reloadForNewBuild()}
        />,
        // Stays until used or the page goes: the user picks the moment.
        { key: 'new-build', duration: 0 },
      ),
    )
    .catch((error: unknown) => console.warn('[kabari] new build notice', error));
}

/** Notices a new deployment of the host and offers a reload. */
export function useBuildUpdates(): void {
  useEffect(() => {
    const currentBuildId = runningBuildId();
    if (!currentBuildId) return;
    return watchForNewBuild({ currentBuildId, fetchLatest: () => fetchLatestBuildId(), onNewBuild: offerReload });
  }, []);
}
