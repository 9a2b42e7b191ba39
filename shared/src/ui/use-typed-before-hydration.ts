import { useLayoutEffect, useRef } from 'react';

type FormField = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface TypedField {
  /** The field's element, once mounted. */
  element: FormField | null | undefined;
  /** What the component's state holds for it. */
  value: string;
  /** Takes what the person typed into the state. */
  adopt: (typed: string) => void;
}

/**
 * A prerendered form can be typed into before its script arrives (on a slow phone, for seconds). React leaves
 * the typed text in place while it hydrates, but its next render writes the state, still empty, back into the
 * field. So once, in the commit that hydrated the form and before any other render, each field's text is
 * taken into the state where the two differ. A form mounted by the client starts equal to its state: nothing
 * happens then.
 */
export function useTypedBeforeHydration(fields: () => TypedField[]): void {
  // The first render's fields: the layout effect runs once, on mount.
  const fieldsAtMount = useRef(fields);
  useLayoutEffect(() => {
    for (const { element, value, adopt } of fieldsAtMount.current()) {
      if (element && element.value !== value) adopt(element.value);
    }
  }, []);
}
