import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import i18n from 'i18next';
import type { RemoteName } from '@kabari/shared/config/runtime-config';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { loadRemoteModule } from '../../lib/federation-remotes';
import { dashboardPath } from '../../lib/route-targets';
import { keepScrollState } from '../../lib/scroll-on-navigation';
import { showToast } from '@kabari/shared/ui/toasts';
import { routeDialogs, type RouteDialogName } from '../../lib/route-dialogs';

type DialogModule = { default: ComponentType<RouteDialogProps> };

const lazyDialogs = new Map<string, ComponentType<RouteDialogProps>>();

function lazyDialog(remote: RemoteName, exposed: string): ComponentType<RouteDialogProps> {
  const key = `${remote}/${exposed}`;
  let dialog = lazyDialogs.get(key);
  if (!dialog) {
    dialog = lazy(() => loadRemoteModule<DialogModule>(remote, exposed));
    lazyDialogs.set(key, dialog);
  }
  return dialog;
}

/** A dialog that cannot be loaded says so in a toast; the dashboard under it keeps working. */
class DialogErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('[kabari] a route dialog failed to load', error);
    showToast('error', i18n.t('remoteUnavailable.title', { ns: 'common' }));
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Opens the dialog of a modal route over the page; closing it goes back to the dashboard. */
export function RouteDialog({ name }: { name: RouteDialogName }) {
  const { remote, exposed } = routeDialogs[name];
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!exposed) return null;
  const Dialog = lazyDialog(remote, exposed);
  const close = () => navigate(dashboardPath(localeFromPath(pathname)), { state: keepScrollState });
  return (
    <DialogErrorBoundary key={name}>
      <Suspense fallback={null}>
        {/* eslint-disable-next-line react-hooks/static-components -- cached per remote dialog in lazyDialogs */}
        <Dialog open onClose={close} />
      </Suspense>
    </DialogErrorBoundary>
  );
}
