import { lazy, Suspense, useEffect, useState } from 'react';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';

const SignUpDialog = lazy(() => import('./sign-up-dialog'));

/**
 * Where the home page keeps the sign-up dialog: nothing of it (the form, the payment step, its texts)
 * loads until the `payment` flag is first set; it then stays mounted, its native dialog opened and closed in place.
 * Its loading starts in the task after the one that set the flag: on a phone, the scripts the Module Federation
 * runtime adds for it were a third of the click's long task.
 */
export function SignUpMount() {
  const open = useOverlayStore((state) => state.open.payment);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!open || wanted) return;
    const handle = setTimeout(() => setWanted(true));
    return () => clearTimeout(handle);
  }, [open, wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <SignUpDialog />
    </Suspense>
  ) : null;
}
