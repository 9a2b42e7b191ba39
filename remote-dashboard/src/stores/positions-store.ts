import { create } from 'zustand';
import type { Position } from '@kabari/shared/requests/location-request';
import { fetchPositions } from '../lib/positions-api';

export interface RequestPositions {
  items: Position[];
  loadState: 'pending' | 'success' | 'error';
}

interface PositionsState {
  byRequest: Record<string, RequestPositions>;
  /** Fetches a request's positions; live ones that arrived meanwhile are kept. */
  load: (requestId: string) => Promise<void>;
  /** A position from a live event: added to a request whose positions are shown or loading. */
  addPosition: (requestId: string, position: Position) => void;
  /** Consent withdrawn: every position of the request was erased. */
  erase: (requestId: string) => void;
  /** After a resync: reload every request shown. */
  reloadAll: () => void;
}

const byTime = (a: Position, b: Position) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt);

function merged(current: Position[], incoming: Position[]): Position[] {
  const seen = new Set(current.map((position) => String(position.id)));
  const added = incoming.filter((position) => !seen.has(String(position.id)));
  return added.length === 0 ? current : [...current, ...added].sort(byTime);
}

/** The positions of the requests whose map was opened, kept up to date by live events. */
export const usePositionsStore = create<PositionsState>()((set, get) => ({
  byRequest: {},
  load: async (requestId) => {
    set((state) => ({
      byRequest: {
        ...state.byRequest,
        [requestId]: { items: state.byRequest[requestId]?.items ?? [], loadState: 'pending' },
      },
    }));
    try {
      const items = await fetchPositions(requestId);
      set((state) => ({
        byRequest: {
          ...state.byRequest,
          [requestId]: { items: merged(items, state.byRequest[requestId]?.items ?? []), loadState: 'success' },
        },
      }));
    } catch {
      set((state) => ({
        byRequest: {
          ...state.byRequest,
          [requestId]: { items: state.byRequest[requestId]?.items ?? [], loadState: 'error' },
        },
      }));
    }
  },
  addPosition: (requestId, position) =>
    set((state) => {
      const current = state.byRequest[requestId];
      if (!current) return state;
      const items = merged(current.items, [position]);
      return items === current.items
        ? state
        : { byRequest: { ...state.byRequest, [requestId]: { ...current, items } } };
    }),
  erase: (requestId) =>
    set((state) =>
      state.byRequest[requestId]
        ? { byRequest: { ...state.byRequest, [requestId]: { items: [], loadState: 'success' } } }
        : state,
    ),
  reloadAll: () => {
    for (const requestId of Object.keys(get().byRequest)) void get().load(requestId);
  },
}));
