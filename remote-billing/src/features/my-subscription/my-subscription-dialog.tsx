import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import Tabs from 'antd/es/tabs';
import { localeFromPath, localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { formatDay, formatTime } from '@kabari/shared/i18n/format-time';
import { formatMoney } from '@kabari/rules/money';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { billingNamespace } from '../../i18n/billing-namespace';
import { payableWaiting, WaitingPaymentNotice, type WaitingPayment } from '../../components/waiting-payment-notice';
import { AccountSection } from './account-section';
import { nextPeriodOf, type NextPeriod } from './next-period';
import {
  fetchPayments,
  fetchSubscriptionInfo,
  type PaymentRecord,
  type SubscriptionInfo,
} from '../../lib/subscription-api';
import './my-subscription-dialog.css';

// The payment step and its QR code load only when a subscriber pays for the next period.
const PayAheadDialog = lazy(() => import('./pay-ahead-dialog'));

type Loaded = { info: SubscriptionInfo; payments: PaymentRecord[] };

/** Whether the subscription renews only when its owner pays, and is running (so the next period can be paid). */
const renewsWhenPaid = (info: SubscriptionInfo) =>
  !!info.renewsWhenPaid && (info.status === 'trial' || info.status === 'active');

function SubscriptionDetails({ info, locale }: { info: SubscriptionInfo; locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const money = (amount: number) => formatMoney(amount, info.currencyCode, locale);
  return (
    <>
      {info.sandbox && (
        <Alert type="warning" showIcon title={t('subscription.sandbox')} className="my-subscription__sandbox" />
      )}
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          {
            key: 'plan',
            label: t('subscription.plan'),
            children: t('subscription.planText', { amount: money(info.amount), period: info.period }),
          },
          {
            key: 'status',
            label: t('subscription.status'),
            children: <span data-testid="subscription-status">{t(`subscription.statuses.${info.status}`)}</span>,
          },
          {
            key: 'validUntil',
            label: t('subscription.validUntil'),
            children: <span data-testid="subscription-valid-until">{formatDay(info.validUntil, locale)}</span>,
          },
          renewsWhenPaid(info)
            ? {
                key: 'next',
                label: t('subscription.renewal'),
                children: (
                  <span data-testid="subscription-renewal">
                    {t('subscription.renewsWhenPaid', { date: formatDay(info.validUntil, locale) })}
                  </span>
                ),
              }
            : {
                key: 'next',
                label: t('subscription.nextCharge'),
                children: info.nextDebitDay
                  ? t('subscription.nextChargeText', {
                      amount: money(info.amount),
                      date: formatDay(info.nextDebitDay, locale),
                    })
                  : t('subscription.noNextCharge'),
              },
        ]}
      />
    </>
  );
}

/**
 * A subscription that renews when paid: when its next period can be paid, and the button that pays it; while a
 * payment for it waits, that payment instead (a second one would be refused).
 */
function NextPeriodSection({
  info,
  next,
  waiting,
  locale,
  onPay,
  onShowWaiting,
  onCancelled,
  onGone,
}: {
  info: SubscriptionInfo;
  next: NextPeriod;
  waiting: WaitingPayment | null;
  locale: Locale;
  onPay: () => void;
  onShowWaiting: (registerId: string) => void;
  onCancelled: (info: SubscriptionInfo) => void;
  onGone: () => void;
}) {
  const { t } = useTranslation(billingNamespace);
  const date = formatDay(info.validUntil, locale);
  return (
    <section aria-labelledby="next-period-title" className="my-subscription__next">
      <h3 id="next-period-title">{t('subscription.nextPeriod.title')}</h3>
      {waiting && next.kind !== 'paid' && (
        <WaitingPaymentNotice
          waiting={waiting}
          locale={locale}
          onShow={() => onShowWaiting(waiting.registerId)}
          onCancelled={onCancelled}
          onGone={onGone}
        />
      )}
      {next.kind === 'open' && !waiting && (
        <>
          <p>{t('subscription.nextPeriod.open', { date, period: info.period })}</p>
          <Button type="primary" onClick={onPay}>
            {t('subscription.nextPeriod.pay')}
          </Button>
        </>
      )}
      {next.kind === 'tooEarly' && (
        <p>{t('subscription.nextPeriod.tooEarly', { from: formatTime(next.from, locale), date })}</p>
      )}
      {next.kind === 'paid' && (
        <p role="status" data-testid="next-period-paid">
          {t('subscription.nextPeriod.paid', { date })}
        </p>
      )}
    </section>
  );
}

/** Why the reminder's link (?renew=1) opened no payment: too early, already paid, or nothing to pay. */
function RenewLinkNotice({ info, next, locale }: { info: SubscriptionInfo; next: NextPeriod; locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const date = formatDay(info.validUntil, locale);
  const text =
    next.kind === 'tooEarly'
      ? t('subscription.renewLink.tooEarly', { from: formatTime(next.from, locale), date })
      : next.kind === 'paid'
        ? t('subscription.renewLink.paid', { date })
        : next.kind === 'cancelled'
          ? t('subscription.renewLink.cancelled', { date })
          : next.kind === 'automatic'
            ? t('subscription.renewLink.automatic', { date: formatDay(info.nextDebitDay ?? info.validUntil, locale) })
            : null;
  if (!text) return null;
  return <Alert type="info" showIcon role="status" title={text} className="my-subscription__note" />;
}

const columns = ['date', 'kind', 'amount', 'state', 'card'] as const;

function PaymentHistory({ payments, locale }: { payments: PaymentRecord[]; locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  // A partial refund says how much came back, in the payment's own currency; a payment the subscriber cancelled or
  // left to expire says so rather than "Failed".
  const stateText = (payment: PaymentRecord) =>
    payment.ended
      ? t(`subscription.history.ended.${payment.ended}`)
      : payment.state === 'partly_refunded' && payment.refundedAmount
        ? t('subscription.history.partlyRefundedAmount', {
            amount: formatMoney(payment.refundedAmount, payment.currencyCode, locale),
          })
        : t(`subscription.history.states.${payment.state}`, { defaultValue: payment.state });
  return (
    <section aria-labelledby="payment-history-title" className="my-subscription__history">
      <h3 id="payment-history-title">{t('subscription.historyTitle')}</h3>
      {payments.length === 0 ? (
        <p>{t('subscription.historyEmpty')}</p>
      ) : (
        <div className="my-subscription__table-wrap">
          {/* Explicit roles: on a phone the rows stack (display: block), which would drop the table's semantics. */}
          <table className="my-subscription__table" role="table" aria-labelledby="payment-history-title">
            <thead role="rowgroup">
              <tr role="row">
                {columns.map((column) => (
                  <th key={column} scope="col" role="columnheader">
                    {t(`subscription.history.${column}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {payments.map((payment) => {
                const cells: Record<(typeof columns)[number], string> = {
                  date: formatTime(payment.createdAt, locale),
                  kind: t(`subscription.history.kinds.${payment.kind}`),
                  amount: formatMoney(payment.amount, payment.currencyCode, locale),
                  state: stateText(payment),
                  card: payment.cardLast4 ? `${payment.cardBrand ?? ''} •••• ${payment.cardLast4}`.trim() : '—',
                };
                return (
                  <tr key={payment.id} role="row">
                    {columns.map((column) => (
                      // data-label: the column's name beside each value when the rows stack.
                      <td key={column} role="cell" data-label={t(`subscription.history.${column}`)}>
                        {cells[column]}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** /dashboard/modules/MySubscription: the plan, its status and payments, cancelling, and the account. */
export default function MySubscriptionDialog({ open, onClose }: RouteDialogProps) {
  const { t } = useTranslation(billingNamespace);
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [paying, setPaying] = useState(false);
  const [waitingId, setWaitingId] = useState<string | null>(null);
  const [stopped, setStopped] = useState(false);
  // The reminder's link (?renew=1): once the subscription is read, the payment opens at once, or it says why it
  // cannot; once per visit (reading the subscription again after a payment does not ask again).
  const renewAsked = useRef(new URLSearchParams(location.search).get('renew') === '1');
  const [notice, setNotice] = useState<{ info: SubscriptionInfo; next: NextPeriod } | null>(null);

  const load = useCallback(() => {
    Promise.all([fetchSubscriptionInfo(), fetchPayments()]).then(
      ([info, payments]) => {
        setLoaded({ info, payments });
        if (!renewAsked.current) return;
        renewAsked.current = false;
        const next = nextPeriodOf(info, new Date());
        // A payment for the next period already waits: the link shows it rather than the choices (409 otherwise).
        const waiting = payableWaiting(info);
        if (next.kind === 'open' && waiting) setWaitingId(waiting.registerId);
        if (next.kind === 'open') setPaying(true);
        else setNotice({ info, next });
      },
      () => setFailed(true),
    );
  }, []);
  useEffect(() => load(), [load]);

  const next = loaded ? nextPeriodOf(loaded.info, new Date()) : null;
  const waiting = payableWaiting(loaded?.info ?? null);
  const showWaiting = (registerId: string) => {
    setWaitingId(registerId);
    setPaying(true);
  };
  // A payment just started is read back from subscribe/info, so it stays on this page once its dialog is closed.
  const started = useCallback(
    (registerId: string | null) => {
      setWaitingId(registerId);
      if (registerId) {
        setStopped(false);
        load();
      }
    },
    [load],
  );
  // A waiting payment cancelled to pay another way: the choices open again. Paid meanwhile: the page says so, and
  // the waiting view's poll does too.
  const cancelled = useCallback(
    (info: SubscriptionInfo) => {
      setLoaded((before) => before && { ...before, info });
      const reopen = !info.waitingPayment && nextPeriodOf(info, new Date()).kind === 'open';
      if (reopen) {
        setWaitingId(null);
        setStopped(true);
        setPaying(true);
      }
      // The payment history shows the cancelled one.
      load();
    },
    [load],
  );
  const cancellable = loaded && (loaded.info.status === 'trial' || loaded.info.status === 'active');

  const subscriptionTab = loaded ? (
    <>
      {notice && <RenewLinkNotice info={notice.info} next={notice.next} locale={locale} />}
      <SubscriptionDetails info={loaded.info} locale={locale} />
      {next && renewsWhenPaid(loaded.info) && (
        <NextPeriodSection
          info={loaded.info}
          next={next}
          waiting={waiting}
          locale={locale}
          onPay={() => {
            setStopped(false);
            setPaying(true);
          }}
          onShowWaiting={showWaiting}
          onCancelled={cancelled}
          onGone={load}
        />
      )}
      {loaded.info.status === 'cancelled' && (
        <p className="my-subscription__note">
          {t('subscription.cancelledNote', { date: formatDay(loaded.info.validUntil, locale) })}
        </p>
      )}
      <PaymentHistory payments={loaded.payments} locale={locale} />
      {cancellable && (
        <Button danger onClick={() => navigate(localizePath(routePaths.cancelMySubscriptionModal, locale))}>
          {t('subscription.cancel')}
        </Button>
      )}
    </>
  ) : failed ? (
    <Alert
      type="error"
      role="alert"
      title={t('subscription.loadFailed')}
      action={
        <Button
          onClick={() => {
            setFailed(false);
            load();
          }}
        >
          {t('subscription.retry')}
        </Button>
      }
    />
  ) : (
    <Spin description={t('subscription.loading')}>
      <div className="my-subscription__loading" />
    </Spin>
  );

  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('subscription.title')}
        onCancel={onClose}
        closable={{ 'aria-label': t('subscription.close') }}
        footer={null}
        width={680}
        className="my-subscription"
      >
        <Tabs
          items={[
            { key: 'subscription', label: t('subscription.tabs.subscription'), children: subscriptionTab },
            { key: 'account', label: t('subscription.tabs.account'), children: <AccountSection /> },
          ]}
        />
      </Modal>
      {loaded && (paying || waitingId) && (
        <Suspense fallback={null}>
          <PayAheadDialog
            open={open && paying}
            info={loaded.info}
            locale={locale}
            registerId={waitingId}
            onStarted={started}
            onPaid={load}
            onCancelled={cancelled}
            stopped={stopped}
            onClose={() => setPaying(false)}
          />
        </Suspense>
      )}
    </AntdScope>
  );
}
