import { useTranslation } from 'react-i18next';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { DataState } from '../../components/data-state';
import { TableScroll } from '../../components/table-scroll';
import { formatMinor } from '../../components/money';
import { NoteDialog } from '../../components/note-dialog';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { useConsoleLocale } from '../../lib/console-paths';
import { useConsoleAction } from '../../lib/use-console-action';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { fetchRefundsOwed, markRefunded, refund, type RefundOwed } from './refunds-api';

/** /operator/refunds: what is owed (refund form, suspensions, disputes), refunded through the processor or marked. */
export function RefundsPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('refunds.title'));
  const { locale } = useConsoleLocale();
  const data = useConsoleData(fetchRefundsOwed, 'refunds');
  const { busy, run } = useConsoleAction();

  const amountOf = (row: RefundOwed) =>
    row.amountMinor !== null && row.currency
      ? formatMinor(row.amountMinor, row.currency, locale)
      : t('refunds.unknown');

  const then = async (action: Promise<boolean>) => {
    const ok = await action;
    if (ok) data.reload();
    return ok;
  };

  function actions(row: RefundOwed) {
    const amount = amountOf(row);
    const provider = row.provider ?? t('refunds.unknown');
    return (
      <div className="console-actions">
        {row.canRefund && (
          <NoteDialog
            label={t('refunds.refund')}
            title={t('refunds.refundTitle', { amount, provider })}
            text={t('refunds.refundText')}
            noteRequired={false}
            primary
            disabled={busy}
            onConfirm={({ note }) => then(run(() => refund(row.id, note), t('refunds.refunded')))}
          />
        )}
        <NoteDialog
          label={t('refunds.markRefunded')}
          title={t('refunds.markTitle', { amount })}
          text={t('refunds.markText')}
          noteRequired={false}
          askReference
          disabled={busy}
          onConfirm={({ note, reference }) =>
            then(run(() => markRefunded(row.id, reference, note), t('refunds.marked')))
          }
        />
      </div>
    );
  }

  return (
    <section className="console-panel">
      <h1 id="refunds-title">{t('refunds.title')}</h1>
      <DataState data={data}>
        {(refunds) => (
          <TableScroll labelledBy="refunds-title">
            <Table
              aria-labelledby="refunds-title"
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={refunds}
              locale={{ emptyText: t('refunds.empty') }}
              columns={[
                {
                  title: t('refunds.columns.createdAt'),
                  dataIndex: 'createdAt',
                  render: (at: string) => formatTime(at, locale),
                },
                {
                  title: t('refunds.columns.source'),
                  key: 'source',
                  render: (_value, row) => (
                    <>
                      {t(`refunds.sources.${row.source}`)}
                      {row.detail && <div className="console-muted">{row.detail}</div>}
                    </>
                  ),
                },
                {
                  title: t('refunds.columns.email'),
                  dataIndex: 'email',
                  render: (email: string | null) => email ?? t('refunds.unknown'),
                },
                {
                  title: t('refunds.columns.amount'),
                  key: 'amount',
                  align: 'right',
                  render: (_value, row) => amountOf(row),
                },
                {
                  title: t('refunds.columns.provider'),
                  dataIndex: 'provider',
                  render: (provider: string | null) => provider ?? t('refunds.unknown'),
                },
                {
                  title: t('refunds.columns.state'),
                  key: 'state',
                  render: (_value, row) => <Tag>{t(`refunds.states.${row.state}`)}</Tag>,
                },
                { title: t('refunds.columns.actions'), key: 'actions', render: (_value, row) => actions(row) },
              ]}
            />
          </TableScroll>
        )}
      </DataState>
    </section>
  );
}
