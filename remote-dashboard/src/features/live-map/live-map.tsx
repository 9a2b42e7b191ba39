import { lazy, Suspense, useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import type { Locale } from '@kabari/shared/i18n/locale';
import { DbipAttribution } from '@kabari/shared/geo/dbip-attribution';
import { positionAddress } from '@kabari/shared/geo/place-address';
import { formatTime } from '@kabari/shared/i18n/format-time';
import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';
import { dashboardLiveNamespace } from '../../i18n/dashboard-live-namespace';
import { useLiveConnectionStore } from '../../stores/live-connection-store';
import { usePositionsStore } from '../../stores/positions-store';
import { PositionAge } from './position-age';
import { useMapView } from './use-map-view';
import { VoiceMessages } from './voice-messages';
import './live-map.css';

// Leaflet and its stylesheet load only when a map is shown.
const PositionMap = lazy(() => import('./position-map'));

/** True while a live share runs; re-renders when it ends. */
function useIsLive(request: LocationRequest): boolean {
  const until = request.liveUntil ? Date.parse(request.liveUntil) : Number.NaN;
  const sharing = request.consent === 'sharing';
  const subscribe = useCallback(
    (changed: () => void) => {
      const remaining = until - Date.now();
      if (!sharing || !(remaining > 0)) return () => undefined;
      // setTimeout's ceiling is about 24.8 days; a share lasts 8 hours at most.
      const timer = setTimeout(changed, Math.min(remaining + 50, 2 ** 31 - 1));
      return () => clearTimeout(timer);
    },
    [until, sharing],
  );
  return useSyncExternalStore(subscribe, () => sharing && until > Date.now());
}

/** The list's positions, with the row's last position when a live event brought it first. */
function withLastPosition(items: Position[], last: Position | null): Position[] {
  if (!last || items.some((position) => String(position.id) === String(last.id))) return items;
  return [...items, last].sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt));
}

function requestName(request: LocationRequest): string {
  return (request.channel === 'link' ? request.title : request.target) ?? '';
}

export interface LiveMapProps {
  request: LocationRequest;
  locale: Locale;
  onClose?: () => void;
}

/**
 * What a request's recipient shared: the latest position on a map (marker, accuracy circle), its address, time and
 * source, the trail of a live share and a live badge until it ends. After consent is withdrawn: only that.
 */
export function LiveMap({ request, locale, onClose }: LiveMapProps) {
  const { t } = useTranslation(dashboardLiveNamespace);
  const withdrawn = request.consent === 'withdrawn';
  const loaded = usePositionsStore((state) => state.byRequest[request.id]);
  const connected = useLiveConnectionStore((state) => state.connected);
  const live = useIsLive(request);
  useMapView(request.id, request.consent === 'sharing');

  useEffect(() => {
    if (!withdrawn) void usePositionsStore.getState().load(request.id);
  }, [request.id, withdrawn]);

  const positions = useMemo(
    () => (withdrawn ? [] : withLastPosition(loaded?.items ?? [], request.lastPosition)),
    [withdrawn, loaded?.items, request.lastPosition],
  );
  const latest = positions.at(-1);
  const address = (latest && positionAddress(latest, locale)) ?? t('map.unknownAddress');
  const name = requestName(request);
  const mapPlaceholder = (
    <div className="live-map__canvas live-map__placeholder" role="status">
      {t('map.loading')}
    </div>
  );

  return (
    <section className="live-map" aria-labelledby="live-map-title" data-testid="live-map">
      <div className="live-map__head">
        <div className="live-map__title">
          <h2 id="live-map-title">{name ? `${t('map.title')}: ${name}` : t('map.title')}</h2>
          {live && !withdrawn && (
            <Tag color="red" data-testid="live-badge">
              <span className="live-map__badge-dot" aria-hidden="true" />
              {t('map.live')}
            </Tag>
          )}
        </div>
        {onClose && <Button onClick={onClose}>{t('map.close')}</Button>}
      </div>

      {withdrawn ? (
        <Alert type="warning" showIcon title={t('map.withdrawn')} description={t('map.withdrawnText')} />
      ) : (
        <>
          {live && request.liveUntil && <p>{t('map.liveUntil', { time: formatTime(request.liveUntil, locale) })}</p>}
          {!live && request.consent === 'sharing' && request.liveEnd && (
            <p role="status" data-testid="live-ended">
              {request.liveEnd.reason
                ? t('map.liveEnded', {
                    time: formatTime(request.liveEnd.at, locale),
                    reason: t(`map.liveEndReasons.${request.liveEnd.reason}`),
                  })
                : t('map.liveEndedEarly', { time: formatTime(request.liveEnd.at, locale) })}
            </p>
          )}
          {connected === false && <p role="status">{t('live.reconnecting')}</p>}
          {!latest && loaded?.loadState === 'error' && (
            <Alert
              type="error"
              showIcon
              title={t('map.failed')}
              action={
                <Button onClick={() => void usePositionsStore.getState().load(request.id)}>{t('map.retry')}</Button>
              }
            />
          )}
          {!latest && (!loaded || loaded.loadState === 'pending') && <p role="status">{t('map.loading')}</p>}
          {!latest && loaded?.loadState === 'success' && <p>{t('map.nothingYet')}</p>}
          {latest && (
            <>
              <dl className="live-map__facts" aria-live="polite">
                <div>
                  <dt>{t('map.fields.address')}</dt>
                  <dd data-testid="live-map-address">{address}</dd>
                </div>
                <div>
                  <dt>{t('map.fields.time')}</dt>
                  <dd>
                    {formatTime(latest.recordedAt, locale)}
                    {' · '}
                    <PositionAge recordedAt={latest.recordedAt} live={live} locale={locale} />
                  </dd>
                </div>
                <div>
                  <dt>{t('map.fields.source')}</dt>
                  <dd data-testid="live-map-source">
                    {t(`map.sources.${latest.source}`)}
                    {latest.source === 'ip' && (
                      <>
                        {' · '}
                        <DbipAttribution>{t('map.ipAttribution')}</DbipAttribution>
                      </>
                    )}
                  </dd>
                </div>
                {latest.accuracyMeters !== null && (
                  <div>
                    <dt>{t('map.fields.accuracy')}</dt>
                    <dd>
                      {t('map.accuracyMeters', { meters: Math.round(latest.accuracyMeters).toLocaleString(locale) })}
                    </dd>
                  </div>
                )}
              </dl>
              {positions.length > 1 && <p>{t('map.trail', { count: positions.length })}</p>}
              {/* The map opens once the trail is known, so its first view can hold all of it. */}
              {loaded && loaded.loadState !== 'pending' ? (
                <Suspense fallback={mapPlaceholder}>
                  <PositionMap
                    positions={positions}
                    label={t('map.mapLabel')}
                    markerTitle={t('map.latestPosition', { address })}
                  />
                </Suspense>
              ) : (
                mapPlaceholder
              )}
            </>
          )}
          {request.consent === 'sharing' && <p className="live-map__note">{t('map.viewsShown')}</p>}
          <VoiceMessages request={request} name={name} locale={locale} />
        </>
      )}
    </section>
  );
}
