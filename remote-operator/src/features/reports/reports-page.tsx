import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Tabs from 'antd/es/tabs';
import Tag from 'antd/es/tag';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { Link } from '@kabari/shared/routing/router';
import { DataState } from '../../components/data-state';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { consolePages, useConsoleLocale } from '../../lib/console-paths';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { fetchReports, type ReportState, type ReportSummary } from './reports-api';

function ReportList({ reports }: { reports: ReportSummary[] }) {
  const { t } = useTranslation(operatorNamespace);
  const { locale, pathTo } = useConsoleLocale();
  if (!reports.length) return <Empty description={t('reports.empty')} />;
  return (
    <ul className="console-card-list" aria-label={t('reports.title')}>
      {reports.map((report) => {
        const date = formatTime(report.createdAt, locale);
        return (
          <li key={report.id}>
            <Link to={pathTo(consolePages.report(report.id))} aria-label={t('reports.view', { date })}>
              <strong>{date}</strong>
            </Link>{' '}
            · {t(`reasons.${report.reason}`)}
            <div className="console-muted">
              {t('reports.columns.requester')}: {report.requester?.displayName ?? t('reports.unknownRequester')}{' '}
              <Tag>{t(`outcomes.${report.outcome ?? 'open'}`)}</Tag>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** /operator: the abuse reports, open or closed, newest first, a page at a time. */
export function ReportsPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('reports.title'));
  const [state, setState] = useState<ReportState>('open');
  // The cursors of the pages seen, so that the operator can go back to the newest.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const before = cursors[cursors.length - 1] ?? null;
  const data = useConsoleData(() => fetchReports(state, before), `${state}:${before ?? ''}`);

  const list = (
    <DataState data={data}>
      {(page) => (
        <>
          <ReportList reports={page.reports} />
          <div className="console-pager">
            {cursors.length > 1 && <Button onClick={() => setCursors([null])}>{t('console.newerPage')}</Button>}
            {page.next && (
              <Button onClick={() => setCursors([...cursors, page.next ?? null])}>{t('console.olderPage')}</Button>
            )}
          </div>
        </>
      )}
    </DataState>
  );
  return (
    <section className="console-panel" aria-labelledby="reports-title">
      <h1 id="reports-title">{t('reports.title')}</h1>
      <Tabs
        activeKey={state}
        onChange={(key) => {
          setState(key as ReportState);
          setCursors([null]);
        }}
        aria-label={t('reports.tabs')}
        items={(['open', 'closed'] as const).map((key) => ({
          key,
          label: t(`reports.${key}`),
          children: key === state ? list : null,
        }))}
      />
    </section>
  );
}
