import { create } from 'zustand';

interface LiveConnectionState {
  /** null until the first attempt answers; false while reconnecting. */
  connected: boolean | null;
  setConnected: (connected: boolean | null) => void;
}

/** Whether live updates arrive: the map says so when they pause. */
export const useLiveConnectionStore = create<LiveConnectionState>()((set) => ({
  connected: null,
  setConnected: (connected) => set({ connected }),
}));
