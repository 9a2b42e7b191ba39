import { useEffect } from 'react';
import { apiClient } from '@kabari/shared/api/api-client';
import { useRequestHistoryStore } from '../../stores/request-history-store';
import { usePositionsStore } from '../../stores/positions-store';
import { connectLiveEvents } from './live-events-client';
import { useLiveConnectionStore } from '../../stores/live-connection-store';

/**
 * While the requester is signed in on the dashboard: their live events update the history rows (Pending → IP
 * Located → GPS Tracked) and the map, without a reload.
 */
export function useLiveUpdates(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return undefined;
    const { setConnected } = useLiveConnectionStore.getState();
    const connection = connectLiveEvents(apiClient.defaults.baseURL ?? '', {
      onRequest: (request) => useRequestHistoryStore.getState().upsertRequest(request),
      onPosition: (requestId, position) => usePositionsStore.getState().addPosition(requestId, position),
      onWithdrawn: (requestId) => usePositionsStore.getState().erase(requestId),
      onResync: () => {
        void useRequestHistoryStore.getState().load();
        usePositionsStore.getState().reloadAll();
      },
      onConnectionChange: setConnected,
    });
    return () => {
      connection.close();
      setConnected(null);
    };
  }, [signedIn]);
}
