import { lazy, Suspense, useState } from 'react';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';

const SignUpDialog = lazy(() => import('./sign-up-dialog'));

/**
 * Where the home page keeps the sign-up dialog: nothing of it (the form, the payment step, its texts)
 * loads until the `payment` flag is first set; it then stays mounted, its native dialog opened and closed in place.
 */
export function SignUpMount() {
  const open = useOverlayStore((state) => state.open.payment);
  const [wanted, setWanted] = useState(false);
  if (open && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <SignUpDialog />
    </Suspense>
  ) : null;
}
