import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { DataState } from '../../components/data-state';
import { TableScroll } from '../../components/table-scroll';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { useConsoleLocale } from '../../lib/console-paths';
import { useConsoleAction } from '../../lib/use-console-action';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { fetchFailedMessages, retryMessage, type FailedMessage } from './failed-messages-api';

/** /operator/failed-messages: the outbox's messages that failed for good, each sent again on demand. */
export function FailedMessagesPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('failedMessages.title'));
  const { locale } = useConsoleLocale();
  const data = useConsoleData(fetchFailedMessages, 'failed');
  const { busy, run } = useConsoleAction();
  return (
    <section className="console-panel">
      <h1 id="failed-title">{t('failedMessages.title')}</h1>
      <DataState data={data}>
        {(messages) => (
          <TableScroll labelledBy="failed-title">
            <Table
              aria-labelledby="failed-title"
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={messages}
              locale={{ emptyText: t('failedMessages.empty') }}
              columns={[
                {
                  title: t('failedMessages.columns.createdAt'),
                  dataIndex: 'createdAt',
                  render: (at: string) => formatTime(at, locale),
                },
                { title: t('failedMessages.columns.subject'), dataIndex: 'subject' },
                {
                  title: t('failedMessages.columns.channel'),
                  dataIndex: 'channel',
                  render: (channel: FailedMessage['channel']) => t(`channels.${channel}`),
                },
                {
                  title: t('failedMessages.columns.recipient'),
                  dataIndex: 'recipient',
                  render: (recipient: string | null) => recipient ?? t('console.none'),
                },
                { title: t('failedMessages.columns.attempts'), dataIndex: 'attempts', align: 'right' },
                { title: t('failedMessages.columns.lastError'), dataIndex: 'lastError' },
                {
                  title: t('failedMessages.columns.actions'),
                  key: 'actions',
                  render: (_value, row) =>
                    row.retryable ? (
                      <Button
                        size="small"
                        disabled={busy}
                        onClick={() =>
                          void run(() => retryMessage(row.id), t('failedMessages.retried')).then(
                            (ok) => ok && data.reload(),
                          )
                        }
                      >
                        {t('failedMessages.retry')}
                      </Button>
                    ) : (
                      <span className="console-muted">{t('failedMessages.notRetryable')}</span>
                    ),
                },
              ]}
            />
          </TableScroll>
        )}
      </DataState>
    </section>
  );
}
