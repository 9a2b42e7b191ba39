import type { Locale } from '@kabari/shared/i18n/locale';
import { useRequestHistoryStore } from '../../stores/request-history-store';
import { LiveMap } from './live-map';

/** The map of the request chosen in the history (its "Show map" button), updated live. */
export function LiveMapPanel({ locale }: { locale: Locale }) {
  const request = useRequestHistoryStore((state) => state.items.find((item) => item.id === state.selectedId) ?? null);
  if (!request) return null;
  return <LiveMap request={request} locale={locale} onClose={() => useRequestHistoryStore.getState().select(null)} />;
}
