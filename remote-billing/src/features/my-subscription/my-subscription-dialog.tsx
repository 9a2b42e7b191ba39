import { useCallback, useEffect, useState } from 'react';
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
import { AccountSection } from './account-section';
import {
  fetchPayments,
  fetchSubscriptionInfo,
  type PaymentRecord,
  type SubscriptionInfo,
} from '../../lib/subscription-api';
import './my-subscription-dialog.css';

type Loaded = { info: SubscriptionInfo; payments: PaymentRecord[] };

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
          {
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

const columns = ['date', 'kind', 'amount', 'state', 'card'] as const;

function PaymentHistory({ payments, locale }: { payments: PaymentRecord[]; locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  // A partial refund says how much came back, in the payment's own currency.
  const stateText = (payment: PaymentRecord) =>
    payment.state === 'partly_refunded' && payment.refundedAmount
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
  const locale = localeFromPath(useLocation().pathname);
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    Promise.all([fetchSubscriptionInfo(), fetchPayments()]).then(
      ([info, payments]) => setLoaded({ info, payments }),
      () => setFailed(true),
    );
  }, []);
  useEffect(() => load(), [load]);

  const cancellable = loaded && (loaded.info.status === 'trial' || loaded.info.status === 'active');

  const subscriptionTab = loaded ? (
    <>
      <SubscriptionDetails info={loaded.info} locale={locale} />
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
    </AntdScope>
  );
}
