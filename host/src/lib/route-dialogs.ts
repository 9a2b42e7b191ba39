import type { RemoteName } from '@kabari/shared/config/runtime-config';

/** The dialogs the modal routes (/dashboard/modules/…) open over the dashboard. */
export type RouteDialogName =
  'successModal' | 'mySubscription' | 'subscriptionExpiredModal' | 'cancelMySubscriptionModal';

export interface RouteDialogTarget {
  remote: RemoteName;
  /**
   * The module the remote exposes (its default export takes RouteDialogProps); null would show the dashboard
   * alone, for a dialog no remote provides.
   */
  exposed: string | null;
}

/** Which remote exposes which route dialog: all four are remote-billing's (remote-billing/exposes.js). */
export const routeDialogs: Record<RouteDialogName, RouteDialogTarget> = {
  successModal: { remote: 'billing', exposed: 'success-modal' },
  mySubscription: { remote: 'billing', exposed: 'my-subscription-dialog' },
  subscriptionExpiredModal: { remote: 'billing', exposed: 'subscription-expired-dialog' },
  cancelMySubscriptionModal: { remote: 'billing', exposed: 'cancel-subscription-dialog' },
};
