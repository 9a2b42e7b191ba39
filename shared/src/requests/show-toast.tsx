import type { ReactNode } from 'react';

type ToastType = 'success' | 'error' | 'info' | 'warning';

/**
 * A toast in the global toast area from a remote (remotes cannot reach the host's helper). antd's
 * message is a shared singleton, so this is the same area the host uses, with the same settings
 * (top-center, about 4 s, at most 3 visible), loaded with the first toast.
 */
export function showToast(type: ToastType, content: ReactNode): void {
  void Promise.all([
    import('antd/es/message'),
    import('antd/es/config-provider'),
    import('@kabari/shared/ui/antd-scope'),
  ])
    .then(([{ default: message }, { default: ConfigProvider }, { KabariTheme }]) => {
      message.config({ top: 16, duration: 4, maxCount: 3 });
      ConfigProvider.config({
        holderRender: (children) => <KabariTheme>{children}</KabariTheme>,
      });
      void message.open({ type, content });
    })
    .catch((error: unknown) => console.error('[kabari] toast', error));
}
