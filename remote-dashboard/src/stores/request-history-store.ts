import { create } from 'zustand';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { deleteRequest, fetchRequests } from '../lib/history-api';

export const historyPageSize = 10;

type LoadState = 'idle' | 'pending' | 'success' | 'error';

interface RequestHistoryState {
  items: LocationRequest[];
  total: number;
  page: number;
  loadState: LoadState;
  /** The request whose map is shown (the live-map panel reads it). */
  selectedId: string | null;
  load: (page?: number) => Promise<void>;
  /**
   * A request created here or changed elsewhere (a live event): replaced in place when shown, added on
   * top of the first page when new (newest first). Live events carry no link URL (the server does not store one
   * with them): a row keeps the URL it already had, from the list or the create answer.
   */
  upsertRequest: (request: LocationRequest) => void;
  removeRequest: (id: string) => Promise<void>;
  select: (id: string | null) => void;
}

/** The dashboard's history of requests: one store, so the live updates and the map share the same rows. */
export const useRequestHistoryStore = create<RequestHistoryState>()((set, get) => ({
  items: [],
  total: 0,
  page: 1,
  loadState: 'idle',
  selectedId: null,
  load: async (page = get().page) => {
    set({ loadState: 'pending', page });
    try {
      const data = await fetchRequests(page, historyPageSize);
      // A later load may have started meanwhile: only the page asked for last is shown.
      if (get().page !== page) return;
      set({ items: data.items, total: data.total, loadState: 'success' });
    } catch {
      if (get().page === page) set({ loadState: 'error' });
    }
  },
  upsertRequest: (request) =>
    set((state) => {
      const index = state.items.findIndex((item) => item.id === request.id);
      if (index >= 0) {
        const items = [...state.items];
        items[index] = { ...request, url: request.url ?? state.items[index]?.url ?? null };
        return { items };
      }
      if (state.page !== 1) return { total: state.total + 1 };
      return { items: [request, ...state.items].slice(0, historyPageSize), total: state.total + 1 };
    }),
  removeRequest: async (id) => {
    await deleteRequest(id);
    set((state) => ({ selectedId: state.selectedId === id ? null : state.selectedId }));
    const { items, page } = get();
    // The last row of a later page gone: show the page before it.
    await get().load(items.length === 1 && page > 1 ? page - 1 : page);
  },
  select: (selectedId) => set({ selectedId }),
}));
