import { useTranslation } from 'react-i18next';
import Descriptions from 'antd/es/descriptions';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { countryName } from '@kabari/shared/i18n/country-name';
import { formatDay, formatTime } from '@kabari/shared/i18n/format-time';
import { Link, useParams } from '@kabari/shared/routing/router';
import { DataState } from '../../components/data-state';
import { TableScroll } from '../../components/table-scroll';
import { formatMinor } from '../../components/money';
import { NoteDialog } from '../../components/note-dialog';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { consolePages, useConsoleLocale } from '../../lib/console-paths';
import { useConsoleAction } from '../../lib/use-console-action';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import { decide, fetchReport, liftSuspension, voiceNoteUrl, type Decision, type ReportDetail } from './reports-api';

type Requester = NonNullable<ReportDetail['requester']>;

function ReportSection({ detail }: { detail: ReportDetail }) {
  const { t } = useTranslation(operatorNamespace);
  const { locale } = useConsoleLocale();
  const { report } = detail;
  const none = t('console.none');
  return (
    <section className="console-panel" aria-labelledby="report-section">
      <h2 id="report-section">{t('report.reportSection')}</h2>
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'reason',
            label: t('report.reason'),
            children: t(`reasons.${report.reason}`),
          },
          {
            key: 'details',
            label: t('report.details'),
            children: report.details ? <span className="console-pre">{report.details}</span> : none,
          },
          { key: 'state', label: t('report.state'), children: <Tag>{t(`outcomes.${report.outcome ?? 'open'}`)}</Tag> },
          ...(report.closedAt
            ? [{ key: 'closedAt', label: t('report.closedAt'), children: formatTime(report.closedAt, locale) }]
            : []),
          ...(report.operatorNote
            ? [
                {
                  key: 'note',
                  label: t('report.operatorNote'),
                  children: <span className="console-pre">{report.operatorNote}</span>,
                },
              ]
            : []),
        ]}
      />
      <h3>{t('report.voiceNote')}</h3>
      {report.voiceNote ? (
        <>
          <audio controls preload="none" src={voiceNoteUrl(report.id)} aria-label={t('report.voiceNote')} />
          <p className="console-muted">
            {t('report.voiceNoteLength', { seconds: Math.round(report.voiceNote.durationMs / 1000) })}
          </p>
          {report.voiceNote.text && (
            <p className="console-pre">
              {t('report.transcript')}: {report.voiceNote.text}
            </p>
          )}
        </>
      ) : (
        <p className="console-muted">{t('report.noVoiceNote')}</p>
      )}
    </section>
  );
}

function RequestSection({ request }: { request: ReportDetail['request'] }) {
  const { t } = useTranslation(operatorNamespace);
  const { locale } = useConsoleLocale();
  const time = (iso: string | null | undefined) => (iso ? formatTime(iso, locale) : t('console.none'));
  return (
    <section className="console-panel" aria-labelledby="request-section">
      <h2 id="request-section">{t('report.requestSection')}</h2>
      {request ? (
        <Descriptions
          column={{ xs: 1, sm: 1, md: 2 }}
          size="small"
          items={[
            {
              key: 'channel',
              label: t('report.channel'),
              children: t(`channels.${request.channel}`),
            },
            { key: 'target', label: t('report.target'), children: request.maskedTarget ?? t('console.none') },
            {
              key: 'message',
              label: t('report.message'),
              children: <span className="console-pre">{request.messageText || t('console.none')}</span>,
              span: 'filled',
            },
            { key: 'createdAt', label: t('report.createdAt'), children: time(request.createdAt) },
            { key: 'openedAt', label: t('report.openedAt'), children: time(request.openedAt) },
            { key: 'decidedAt', label: t('report.decidedAt'), children: time(request.decidedAt) },
            { key: 'cancelledAt', label: t('report.cancelledAt'), children: time(request.cancelledAt) },
            { key: 'expiresAt', label: t('report.expiresAt'), children: time(request.expiresAt) },
            { key: 'status', label: t('report.status'), children: request.status },
            { key: 'consent', label: t('report.consent'), children: request.consent },
          ]}
        />
      ) : (
        <p className="console-muted">{t('report.noRequest')}</p>
      )}
    </section>
  );
}

function RequesterSection({ requester }: { requester: Requester }) {
  const { t } = useTranslation(operatorNamespace);
  const { t: tc } = useTranslation('common');
  const languageName = (code: string) => (code === 'en' || code === 'id' ? tc(`language.${code}`) : code);
  const { locale, pathTo } = useConsoleLocale();
  const spent = requester.smsSpent;
  const smsSpent =
    spent.currency && spent.todayMinor !== null && spent.totalMinor !== null
      ? t('report.smsSpentMoney', {
          today: spent.today,
          total: spent.total,
          todayAmount: formatMinor(spent.todayMinor, spent.currency, locale),
          totalAmount: formatMinor(spent.totalMinor, spent.currency, locale),
        })
      : t('report.smsSpentValue', { today: spent.today, total: spent.total });
  return (
    <section className="console-panel" aria-labelledby="requester-section">
      <h2 id="requester-section">{t('report.requesterSection')}</h2>
      <Descriptions
        column={{ xs: 1, sm: 1, md: 2 }}
        size="small"
        items={[
          { key: 'name', label: t('report.displayName'), children: requester.displayName },
          {
            key: 'age',
            label: t('report.accountAge'),
            children: t('report.accountAgeDays', {
              count: requester.accountAgeDays,
              date: formatDay(requester.createdAt, locale),
            }),
          },
          {
            key: 'country',
            label: t('report.country'),
            children: requester.country ? countryName(requester.country, locale) : t('console.none'),
          },
          { key: 'locale', label: t('report.locale'), children: languageName(requester.locale) },
          { key: 'sms', label: t('report.smsSpent'), children: smsSpent },
          {
            key: 'suspension',
            label: t('report.suspension'),
            children: requester.suspension
              ? `${t('report.suspendedSince', { date: formatTime(requester.suspension.suspendedAt, locale) })}${
                  requester.suspension.refundOwed ? ` ${t('report.refundOwed')}` : ''
                }`
              : t('report.notSuspended'),
          },
        ]}
      />
      <h3 id="requests-per-day">{t('report.requestsPerDay')}</h3>
      <TableScroll labelledBy="requests-per-day">
        <Table
          aria-labelledby="requests-per-day"
          size="small"
          pagination={false}
          rowKey="day"
          dataSource={requester.requestsPerDay}
          locale={{ emptyText: t('report.noRequests') }}
          columns={[
            { title: t('report.day'), dataIndex: 'day', render: (day: string) => formatDay(day, locale) },
            { title: t('report.sms'), dataIndex: 'sms', align: 'right' },
            { title: t('report.email'), dataIndex: 'email', align: 'right' },
            { title: t('report.link'), dataIndex: 'link', align: 'right' },
          ]}
        />
      </TableScroll>
      <h3>{t('report.otherReports')}</h3>
      {requester.otherReports.length ? (
        <ul>
          {requester.otherReports.map((other) => (
            <li key={other.id}>
              <Link to={pathTo(consolePages.report(other.id))}>{formatTime(other.createdAt, locale)}</Link> ·{' '}
              {t(`reasons.${other.reason}`)} · {t(`reports.${other.state}`)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="console-muted">{t('report.noOtherReports')}</p>
      )}
    </section>
  );
}

function Decisions({ detail, onDone }: { detail: ReportDetail; onDone: () => void }) {
  const { t } = useTranslation(operatorNamespace);
  const { busy, run } = useConsoleAction();
  const open = detail.report.state === 'open';
  const suspension = detail.requester?.suspension ?? null;
  const act =
    (decision: Decision, done: string) =>
    async ({ note }: { note: string }) => {
      const ok = await run(() => decide(detail.report.id, decision, note), done);
      if (ok) onDone();
      return ok;
    };
  if (!open && !suspension) return null;
  return (
    <section className="console-panel" aria-labelledby="decision-section">
      <h2 id="decision-section">{t('report.actions')}</h2>
      <div className="console-actions">
        {open && (
          <>
            <NoteDialog
              label={t('report.dismiss')}
              title={t('report.dismissTitle')}
              text={t('report.dismissText')}
              noteRequired
              disabled={busy}
              onConfirm={act('dismiss', t('report.dismissed'))}
            />
            <NoteDialog
              label={t('report.warn')}
              title={t('report.warnTitle')}
              text={t('report.warnText')}
              noteRequired={false}
              disabled={busy || !detail.requester}
              onConfirm={act('warn', t('report.warned'))}
            />
            <NoteDialog
              label={t('report.suspend')}
              title={t('report.suspendTitle')}
              text={t('report.suspendText')}
              noteRequired
              danger
              disabled={busy || !detail.requester || suspension !== null}
              onConfirm={act('suspend', t('report.suspended'))}
            />
          </>
        )}
        {suspension && (
          <NoteDialog
            label={t('report.lift')}
            title={t('report.liftTitle')}
            text={t('report.liftText')}
            noteRequired
            disabled={busy}
            onConfirm={async ({ note }) => {
              const ok = await run(() => liftSuspension(suspension.id, note), t('report.lifted'));
              if (ok) onDone();
              return ok;
            }}
          />
        )}
      </div>
    </section>
  );
}

/** /operator/reports/:id: the report, the request it concerns, the requester, and the decision. */
export function ReportPage() {
  const { t } = useTranslation(operatorNamespace);
  const { id = '' } = useParams();
  const { locale, pathTo } = useConsoleLocale();
  const data = useConsoleData(() => fetchReport(id), id);
  const title =
    data.phase === 'ready'
      ? t('report.title', { date: formatTime(data.data.report.createdAt, locale) })
      : t('reports.title');
  useConsoleTitle(title);
  return (
    <>
      <p>
        <Link to={pathTo(consolePages.reports)}>← {t('report.back')}</Link>
      </p>
      <h1>{title}</h1>
      <DataState data={data}>
        {(detail) => (
          <>
            <Decisions detail={detail} onDone={data.reload} />
            <ReportSection detail={detail} />
            <RequestSection request={detail.request} />
            {detail.requester ? (
              <RequesterSection requester={detail.requester} />
            ) : (
              <section className="console-panel">
                <h2>{t('report.requesterSection')}</h2>
                <p className="console-muted">{t('report.noRequester')}</p>
              </section>
            )}
          </>
        )}
      </DataState>
    </>
  );
}
