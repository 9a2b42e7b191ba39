import { useTranslation } from 'react-i18next';
import { useTokenStore, useUserStore } from '@kabari/shared/stores/session-store';
import Empty from 'antd/es/empty';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { dashboardNamespace } from '../../i18n/dashboard-namespace';

function displayName(info: Record<string, unknown> | undefined): string {
  const name = info?.['displayName'] ?? info?.['email'];
  return typeof name === 'string' ? name : '';
}

export default function DashboardPage() {
  const { t } = useTranslation(dashboardNamespace);
  const token = useTokenStore((state) => state.token);
  const user = useUserStore((state) => state.user);
  return (
    <section className="dashboard-page" data-remote="dashboard" aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">{t('overview.title')}</h1>
      {token && user ? (
        <p data-testid="dashboard-user">{t('overview.signedInAs', { name: displayName(user.userCacheInfo) })}</p>
      ) : (
        <AntdScope>
          <Empty data-testid="dashboard-signed-out" description={t('overview.signedOut')} />
        </AntdScope>
      )}
    </section>
  );
}
