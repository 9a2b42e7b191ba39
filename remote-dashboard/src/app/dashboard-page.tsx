import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { useLocation } from '@kabari/shared/routing/router';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import Empty from 'antd/es/empty';
import Button from 'antd/es/button';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { prefersReducedMotion } from '@kabari/shared/ui/use-reduced-motion';
import { dashboardNamespace } from '../i18n/dashboard-namespace';
import { dashboardRequestsNamespace } from '../i18n/dashboard-requests-namespace';
import { NewSearch } from '../features/new-search/new-search';
import { RequestHistory } from '../features/history/request-history';
import { useRequestHistoryStore } from '../stores/request-history-store';
import { TipsModal } from '../features/tips/tips-modal';
import { LiveMapPanel } from '../features/live-map/live-map-panel';
import { useLiveUpdates } from '../features/live-updates/use-live-updates';
import './dashboard-page.css';

export default function DashboardPage() {
  const { t } = useTranslation(dashboardNamespace);
  const { t: tr } = useTranslation(dashboardRequestsNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const user = useUserStore((state) => state.user);
  const [tipsOpen, setTipsOpen] = useState(false);
  const historyHeading = useRef<HTMLHeadingElement>(null);
  const upsertRequest = useRequestHistoryStore((state) => state.upsertRequest);
  useLiveUpdates(Boolean(user));

  function seeHistory() {
    historyHeading.current?.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    historyHeading.current?.focus({ preventScroll: true });
  }

  return (
    <section className="dashboard-page" data-remote="dashboard" aria-labelledby="dashboard-title">
      <AntdScope>
        <div className="dashboard-page__head">
          <h1 id="dashboard-title">{t('overview.title')}</h1>
          {user && (
            <Button onClick={() => setTipsOpen(true)} className="dashboard-page__tips">
              {tr('page.tips')}
            </Button>
          )}
        </div>
        {user ? (
          <>
            <p data-testid="dashboard-user">
              {t('overview.signedInAs', { name: user.userCacheInfo.displayName || user.userCacheInfo.email })}
            </p>
            <NewSearch locale={locale} onRequestCreated={upsertRequest} onSeeHistory={seeHistory} />
            <LiveMapPanel locale={locale} />
            <RequestHistory ref={historyHeading} locale={locale} />
            <TipsModal open={tipsOpen} onClose={() => setTipsOpen(false)} />
          </>
        ) : (
          <Empty data-testid="dashboard-signed-out" description={t('overview.signedOut')} />
        )}
      </AntdScope>
    </section>
  );
}
