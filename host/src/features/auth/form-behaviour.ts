import { useCallback } from 'react';
import type { FormInstance } from 'antd/es/form';
import type { InputRef } from 'antd/es/input';

/**
 * Fields are checked when the user leaves them (a hint while still typing is noise); once a hint is
 * shown, it is re-checked at every keystroke so it disappears as soon as the value is right.
 */
export function useRevalidateWhileWrong<Values>(form: FormInstance<Values>) {
  return useCallback(
    (changed: Partial<Values>) => {
      for (const name of Object.keys(changed)) {
        if (form.getFieldError(name as never).length) void form.validateFields([name as never]).catch(() => {});
      }
    },
    [form],
  );
}

/**
 * Once the dialog has opened, the cursor goes to its first field, unless the user has already
 * clicked or tabbed into a field while it was opening.
 */
export function focusFirstField(input: InputRef | null): void {
  if (!(document.activeElement instanceof HTMLInputElement)) input?.focus();
}
