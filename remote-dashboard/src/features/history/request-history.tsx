import { useEffect, forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Pagination from 'antd/es/pagination';
import Tag from 'antd/es/tag';
import Modal from 'antd/es/modal';
import Alert from 'antd/es/alert';
import { DbipAttribution } from '@kabari/shared/geo/dbip-attribution';
import { positionAddress } from '@kabari/shared/geo/place-address';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest, RequestStatus } from '@kabari/shared/requests/location-request';
import { showToast } from '@kabari/shared/ui/toasts';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { dashboardLiveNamespace } from '../../i18n/dashboard-live-namespace';
import { cancelRequest } from '../../lib/history-api';
import { historyPageSize, useRequestHistoryStore } from '../../stores/request-history-store';
import './request-history.css';

const statusColours: Record<RequestStatus, string> = { pending: 'default', ip_located: 'blue', gps_tracked: 'green' };

/** Sent by WhatsApp and still so: once an SMS went instead, its delivery is the SMS's. */
function sentByWhatsApp(request: LocationRequest): boolean {
  return request.whatsapp !== null && request.whatsapp.fallback !== 'sms';
}

function targetOf(request: LocationRequest): string {
  return (request.channel === 'link' ? request.title : request.target) ?? '';
}

/** The last position's address in the reader's language (its place's parts; older positions: the stored text). */
function addressOf(request: LocationRequest, locale: Locale): string | null {
  return request.lastPosition ? positionAddress(request.lastPosition, locale) : null;
}

/**
 * What the server cancels (its CANCELLABLE_CONSENTS): a request of any channel whose link still opens, not yet
 * answered, sharing, or stopped for now, and not expired. A declined, withdrawn or cancelled one has ended.
 */
function isCancellable(request: LocationRequest): boolean {
  return (
    (request.consent === 'none' || request.consent === 'sharing' || request.consent === 'stopped') &&
    (!request.expiresAt || new Date(request.expiresAt).getTime() > Date.now())
  );
}

interface RequestHistoryProps {
  locale: Locale;
}

/**
 * The history of the user's requests: newest first, ten a page, each with its status,
 * the recipient's consent, the message's delivery, the times and the last known address.
 */
export const RequestHistory = forwardRef<HTMLHeadingElement, RequestHistoryProps>(function RequestHistory(
  { locale },
  headingRef,
) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const { t: tLive } = useTranslation(dashboardLiveNamespace);
  const items = useRequestHistoryStore((state) => state.items);
  const total = useRequestHistoryStore((state) => state.total);
  const page = useRequestHistoryStore((state) => state.page);
  const loadState = useRequestHistoryStore((state) => state.loadState);
  const selectedId = useRequestHistoryStore((state) => state.selectedId);
  const { load, removeRequest, upsertRequest, select } = useRequestHistoryStore.getState();
  const [modal, modalHolder] = Modal.useModal();

  useEffect(() => {
    void useRequestHistoryStore.getState().load(1);
  }, []);

  function confirmDelete(request: LocationRequest) {
    void modal.confirm({
      title: t('history.deleteConfirm'),
      okText: t('history.confirmYes'),
      cancelText: t('history.confirmNo'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await removeRequest(request.id);
        showToast('success', t('history.deleted'));
      },
    });
  }

  function confirmCancel(request: LocationRequest) {
    const isLink = request.channel === 'link';
    void modal.confirm({
      title: isLink ? t('history.cancelLinkConfirm') : t('history.cancelRequestConfirm'),
      okText: t('history.confirmYes'),
      cancelText: t('history.confirmNo'),
      onOk: async () => {
        const outcome = await cancelRequest(request.id);
        upsertRequest(outcome.request);
        // Say what the server did: an ended request (declined meanwhile, say) was not cancelled.
        if (!outcome.cancelled) showToast('info', t('history.notCancelled'));
        else showToast('success', isLink ? t('history.cancelled') : t('history.cancelledRequest'));
      },
    });
  }

  /** The message's delivery in plain words: a failure the provider explained says why. */
  function deliveryText(request: LocationRequest): string {
    if (request.delivery === 'outbox') {
      return t(
        `history.deliveries.outbox.${request.channel === 'email' ? 'email' : sentByWhatsApp(request) ? 'whatsapp' : 'sms'}`,
      );
    }
    if (request.delivery === 'failed' && request.deliveryFailure) {
      return t(`history.deliveryFailures.${request.deliveryFailure.reason}`);
    }
    // An email's receipt is the receiving server's acceptance: it says nothing of the inbox beyond.
    if (request.delivery === 'delivered' && request.channel === 'email') return t('history.deliveries.accepted');
    return t(`history.deliveries.${request.delivery ?? 'queued'}`);
  }

  const notYet = t('history.notYet');
  return (
    <section className="request-history" aria-labelledby="request-history-title">
      {modalHolder}
      <h2 id="request-history-title" ref={headingRef} tabIndex={-1}>
        {t('history.title')}
      </h2>
      {loadState === 'error' && (
        <Alert
          type="error"
          showIcon
          title={t('history.failed')}
          action={<Button onClick={() => void load()}>{t('history.retry')}</Button>}
        />
      )}
      {loadState === 'pending' && items.length === 0 && <p role="status">{t('history.loading')}</p>}
      {loadState === 'success' && items.length === 0 && <p>{t('history.empty')}</p>}
      <ul className="request-history__list" aria-busy={loadState === 'pending'}>
        {items.map((request) => (
          <li
            key={request.id}
            className="request-history__item"
            data-selected={request.id === selectedId || undefined}
            data-testid="request-row"
          >
            <div className="request-history__head">
              <Tag>{t(`history.channels.${request.whatsapp ? 'whatsapp' : request.channel}`)}</Tag>
              <span className="request-history__target">{targetOf(request)}</span>
              <Tag className="request-history__status" color={statusColours[request.status]}>
                {t(`history.statuses.${request.status}`)}
              </Tag>
            </div>
            <dl className="request-history__facts">
              <div>
                <dt>{t('history.fields.consent')}</dt>
                <dd>{t(`history.consents.${request.consent}`)}</dd>
              </div>
              {request.delivery && (
                <div>
                  <dt>{t('history.fields.delivery')}</dt>
                  <dd data-testid="request-delivery">{deliveryText(request)}</dd>
                </div>
              )}
              {request.whatsapp?.fallback && (
                <div>
                  <dt>{t('history.fields.whatsapp')}</dt>
                  <dd data-testid="request-whatsapp-fallback">
                    {t(`history.whatsappFallbacks.${request.whatsapp.fallback}`)}
                  </dd>
                </div>
              )}
              <div>
                <dt>{t('history.fields.requestTime')}</dt>
                <dd>{formatTime(request.requestTime, locale)}</dd>
              </div>
              <div>
                <dt>{t('history.fields.locatedTime')}</dt>
                <dd>{request.locatedTime ? formatTime(request.locatedTime, locale) : notYet}</dd>
              </div>
              <div>
                <dt>{t('history.fields.address')}</dt>
                <dd data-testid="request-address">
                  {addressOf(request, locale) ?? t('history.noAddress')}
                  {/* An address found from the IP: DB-IP's data, whose licence (CC BY 4.0) asks for this credit. */}
                  {request.lastPosition?.source === 'ip' && addressOf(request, locale) && (
                    <>
                      {' · '}
                      <DbipAttribution>{tLive('map.ipAttribution')}</DbipAttribution>
                    </>
                  )}
                </dd>
              </div>
            </dl>
            <div className="request-history__actions">
              {request.lastPosition && (
                <Button size="small" onClick={() => select(request.id)} aria-pressed={request.id === selectedId}>
                  {t('history.showMap')}
                </Button>
              )}
              {isCancellable(request) && (
                <Button size="small" onClick={() => confirmCancel(request)}>
                  {request.channel === 'link' ? t('history.cancelLink') : t('history.cancelRequest')}
                </Button>
              )}
              <Button size="small" danger onClick={() => confirmDelete(request)}>
                {t('history.delete')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {total > historyPageSize && (
        <nav aria-label={t('history.pagination')}>
          <Pagination
            current={page}
            pageSize={historyPageSize}
            total={total}
            showSizeChanger={false}
            onChange={(next) => void load(next)}
          />
        </nav>
      )}
    </section>
  );
});
