import { lazy, Suspense, useState } from 'react';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';

const SignUpDialog = lazy(() => import('./sign-up-dialog'));

/**
 * Where the home page keeps the sign-up dialog: nothing of it (antd, the payment form, its texts)
 * loads until the `payment` flag is first set; it then stays mounted so that closing animates.
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
