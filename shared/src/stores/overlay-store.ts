import { create } from 'zustand';

export type OverlayName = 'login' | 'resetPwd' | 'searching' | 'payment';

/** What the number search hands to the sign-up dialog: the number the visitor searched, in E.164. */
export interface ProductInfo {
  searchedNumber: string;
}

interface OverlayState {
  open: Record<OverlayName, boolean>;
  productInfo: ProductInfo | null;
  toggle: (name: OverlayName) => void;
  set: (name: OverlayName, open: boolean) => void;
  setProductInfo: (info: ProductInfo | null) => void;
}

/** The interface overlay flags: every modal is off until toggled or set. */
export const useOverlayStore = create<OverlayState>()((set) => ({
  open: { login: false, resetPwd: false, searching: false, payment: false },
  productInfo: null,
  toggle: (name) => set((state) => ({ open: { ...state.open, [name]: !state.open[name] } })),
  set: (name, open) => set((state) => ({ open: { ...state.open, [name]: open } })),
  setProductInfo: (productInfo) => set({ productInfo }),
}));
