/**
 * What a dialog a remote exposes for a modal route (e.g. /dashboard/modules/MySubscription) receives
 * from the host: it is open while the route is shown, and onClose leaves the route for the dashboard.
 */
export interface RouteDialogProps {
  open: boolean;
  onClose: () => void;
}
