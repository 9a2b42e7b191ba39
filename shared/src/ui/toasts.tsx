import type { ReactNode } from 'react';
import type messageApi from 'antd/es/message';

export type ToastType = 'success' | 'error' | 'info' | 'warning';

export interface ToastOptions {
  /** A toast with the same key replaces the one shown, instead of stacking (e.g. a burst of 401s). */
  key?: string;
  /** Seconds; 0 keeps it until closed. */
  duration?: number;
}

/**
 * Toasts: top-center, about 4 s, at most 3 visible. One toast area for the host and every remote: antd's message and
 * this module are shared singletons, so they all show their toasts in the same place, with the same settings.
 */
export const toastConfig = { top: 16, duration: 4, maxCount: 3 } as const;

type Message = typeof messageApi;

let loading: Promise<Message> | null = null;

// antd's message (and its styles) load with the first toast: pages a visitor lands on never pay for it.
function loadMessage(): Promise<Message> {
  loading ??= Promise.all([
    import('antd/es/message'),
    import('antd/es/config-provider'),
    import('@kabari/shared/ui/antd-scope'),
  ]).then(([{ default: message }, { default: ConfigProvider }, { KabariTheme }]) => {
    message.config(toastConfig);
    // Static toasts render outside the app's tree: give them the app's (light) theme here.
    ConfigProvider.config({
      holderRender: (children) => <KabariTheme>{children}</KabariTheme>,
    });
    return message;
  });
  return loading;
}

/** Shows a toast in the global toast area. */
export function showToast(type: ToastType, content: ReactNode, options: ToastOptions = {}): void {
  loadMessage()
    .then((message) => {
      void message.open({ type, content, key: options.key, duration: options.duration });
    })
    .catch((error: unknown) => console.error('[kabari] toast', error));
}
