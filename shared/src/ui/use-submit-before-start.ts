import { useLayoutEffect, type RefObject } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * The marks shared with the page's first script (webpack/start-after-first-paint.browser.js): a prerendered form
 * marked `held` has its submit button turned on by that script, and a submit is held there until the app has taken
 * the form over; a held submit is marked `pending` (and the form `aria-busy`).
 */
export const SUBMIT_BEFORE_START = { held: 'data-submit-after-start', pending: 'data-submit-pending' } as const;

/**
 * A prerendered form whose submit is not lost when it comes before the app has started (on a slow phone, seconds
 * after the page shows). Spread `form` on the form and `submitButton` on its submit button: until hydration they mark
 * the form held and the button disabled (so that without script nothing pretends to work; the page's first script
 * turns it on), and they let hydration find the attributes that script changed. In the commit that hydrates the form
 * it stops being held (the app's own submit handler answers from then on), and a submit held meanwhile is sent again,
 * once: after this commit's own updates (what was typed, taken into the state by useTypedBeforeHydration), which
 * React renders before any microtask runs, so the handler reads the typed values.
 */
export function useSubmitBeforeStart(form: RefObject<HTMLFormElement | null>): {
  form: { [SUBMIT_BEFORE_START.held]?: ''; suppressHydrationWarning: true };
  submitButton: { disabled: boolean; suppressHydrationWarning: true };
} {
  const hydrated = useHydrated();
  useLayoutEffect(() => {
    const element = form.current;
    if (!element) return;
    element.removeAttribute(SUBMIT_BEFORE_START.held);
    if (!element.hasAttribute(SUBMIT_BEFORE_START.pending)) return;
    element.removeAttribute(SUBMIT_BEFORE_START.pending);
    element.removeAttribute('aria-busy');
    queueMicrotask(() => {
      if (element.isConnected) element.requestSubmit();
    });
    // A ref: the effect runs once, on mount.
  }, [form]);
  // suppressHydrationWarning: the first script writes these attributes (the marks, the button's disabled) before
  // hydration, on purpose.
  return {
    form: hydrated
      ? { suppressHydrationWarning: true }
      : { [SUBMIT_BEFORE_START.held]: '', suppressHydrationWarning: true },
    submitButton: { disabled: !hydrated, suppressHydrationWarning: true },
  };
}
