import { useTranslation } from 'react-i18next';
import Descriptions from 'antd/es/descriptions';
import Table from 'antd/es/table';
import { countryName } from '@kabari/shared/i18n/country-name';
import { formatDay } from '@kabari/shared/i18n/format-time';
import { DataState } from '../../components/data-state';
import { TableScroll } from '../../components/table-scroll';
import { formatMinor } from '../../components/money';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { useConsoleLocale } from '../../lib/console-paths';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { fetchSmsSpend, type SmsSpend } from './sms-spend-api';

/** The tables and totals of one day's spend, its amounts in the SMS price's currency when one is set. */
function SpendTables({ spend }: { spend: SmsSpend }) {
  const { t } = useTranslation(operatorNamespace);
  const { locale } = useConsoleLocale();
  const money = (minor: number | null) =>
    minor === null || !spend.currency ? t('console.none') : formatMinor(minor, spend.currency, locale);
  const country = (code: string) => (code === 'unknown' ? t('smsSpend.unknownCountry') : countryName(code, locale));
  return (
    <>
      <p className="console-muted">{t('smsSpend.day', { day: formatDay(spend.day, locale) })}</p>
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'count',
            label: t('smsSpend.total'),
            children: t('smsSpend.totalValue', { count: spend.total.count, cap: spend.caps.dailyBudget }),
          },
          {
            key: 'sms',
            label: t('smsSpend.smsLine'),
            children: t('smsSpend.lineValue', { count: spend.sms.count, spent: money(spend.sms.spentMinor) }),
          },
          // WhatsApp messages count in the same caps as SMS but cost their own price: their own line, where any.
          ...(spend.whatsapp.count > 0 || spend.whatsapp.spentMinor !== null
            ? [
                {
                  key: 'whatsapp',
                  label: t('smsSpend.whatsappLine'),
                  children: t('smsSpend.lineValue', {
                    count: spend.whatsapp.count,
                    spent: money(spend.whatsapp.spentMinor),
                  }),
                },
              ]
            : []),
          {
            key: 'spent',
            label: t('smsSpend.spent'),
            children: t('smsSpend.spentValue', {
              spent: money(spend.total.spentMinor),
              cap: money(spend.total.capMinor),
            }),
          },
          { key: 'cap', label: t('smsSpend.perAccountCap'), children: spend.caps.perAccountPerDay },
        ]}
      />
      <h2 id="sms-country" style={{ marginTop: 16 }}>
        {t('smsSpend.perCountry')}
      </h2>
      <TableScroll labelledBy="sms-country">
        <Table
          aria-labelledby="sms-country"
          size="small"
          rowKey="country"
          pagination={false}
          dataSource={spend.perCountry}
          locale={{ emptyText: t('smsSpend.empty') }}
          columns={[
            { title: t('smsSpend.country'), dataIndex: 'country', render: country },
            { title: t('smsSpend.count'), dataIndex: 'count', align: 'right' },
            { title: t('smsSpend.whatsappCount'), dataIndex: 'whatsappCount', align: 'right' },
            { title: t('smsSpend.spent'), dataIndex: 'spentMinor', align: 'right', render: money },
            {
              title: t('smsSpend.allowed'),
              dataIndex: 'allowed',
              render: (allowed: boolean) => (allowed ? t('smsSpend.yes') : t('smsSpend.no')),
            },
          ]}
        />
      </TableScroll>
      <h2 id="sms-account" style={{ marginTop: 16 }}>
        {t('smsSpend.perAccount')}
      </h2>
      <TableScroll labelledBy="sms-account">
        <Table
          aria-labelledby="sms-account"
          size="small"
          rowKey="userId"
          pagination={false}
          dataSource={spend.perAccount}
          locale={{ emptyText: t('smsSpend.empty') }}
          columns={[
            {
              title: t('smsSpend.account'),
              dataIndex: 'displayName',
              render: (name: string | null) => name ?? t('reports.unknownRequester'),
            },
            { title: t('smsSpend.count'), dataIndex: 'count', align: 'right' },
            { title: t('smsSpend.whatsappCount'), dataIndex: 'whatsappCount', align: 'right' },
            { title: t('smsSpend.spent'), dataIndex: 'spentMinor', align: 'right', render: money },
            { title: t('smsSpend.cap'), dataIndex: 'cap', align: 'right' },
          ]}
        />
      </TableScroll>
    </>
  );
}

/**
 * /operator/sms-spend: today's SMS and WhatsApp messages, in all and each apart, per country and per account, against
 * the server's caps.
 */
export function SmsSpendPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('smsSpend.title'));
  const data = useConsoleData(fetchSmsSpend, 'sms-spend');
  return (
    <section className="console-panel" aria-labelledby="sms-title">
      <h1 id="sms-title">{t('smsSpend.title')}</h1>
      <DataState data={data}>{(spend) => <SpendTables spend={spend} />}</DataState>
    </section>
  );
}
