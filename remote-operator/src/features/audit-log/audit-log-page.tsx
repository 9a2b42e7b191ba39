import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { DataState } from '../../components/data-state';
import { TableScroll } from '../../components/table-scroll';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { useConsoleLocale } from '../../lib/console-paths';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { fetchAuditLog } from './audit-log-api';

/** /operator/audit-log: every operator action, newest first, a page at a time. */
export function AuditLogPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('auditLog.title'));
  const { locale } = useConsoleLocale();
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const before = cursors[cursors.length - 1] ?? null;
  const data = useConsoleData(() => fetchAuditLog(before), before ?? '');
  return (
    <section className="console-panel">
      <h1 id="audit-title">{t('auditLog.title')}</h1>
      <p className="console-muted">{t('auditLog.intro')}</p>
      <DataState data={data}>
        {(page) => (
          <>
            <TableScroll labelledBy="audit-title">
              <Table
                aria-labelledby="audit-title"
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={page.entries}
                locale={{ emptyText: t('auditLog.empty') }}
                columns={[
                  { title: t('auditLog.columns.at'), dataIndex: 'at', render: (at: string) => formatTime(at, locale) },
                  { title: t('auditLog.columns.operator'), dataIndex: 'operatorEmail' },
                  { title: t('auditLog.columns.action'), dataIndex: 'action' },
                  {
                    title: t('auditLog.columns.object'),
                    key: 'object',
                    render: (_value, entry) =>
                      entry.objectId ? `${entry.objectType} ${entry.objectId}` : entry.objectType,
                  },
                  { title: t('auditLog.columns.note'), dataIndex: 'note', render: (note: string | null) => note ?? '' },
                ]}
              />
            </TableScroll>
            <div className="console-pager">
              {cursors.length > 1 && <Button onClick={() => setCursors([null])}>{t('console.newerPage')}</Button>}
              {page.next && (
                <Button onClick={() => setCursors([...cursors, page.next ?? null])}>{t('console.olderPage')}</Button>
              )}
            </div>
          </>
        )}
      </DataState>
    </section>
  );
}
