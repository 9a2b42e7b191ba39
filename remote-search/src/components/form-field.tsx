import type { ReactNode } from 'react';

/** What a field gives its control: the control's id, and the attributes tying it to the field's hint and error. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  /** The control's id; the hint's and the error's are it with -hint and -error. */
  id: string;
  label: string;
  hint?: string;
  /** The field's problem in words, once the form has been sent. */
  error?: string;
  /** The control, given what ties it to its label, hint and error. */
  children: (control: FieldControl) => ReactNode;
  /** What belongs to the field below its error (a button, a status line). */
  after?: ReactNode;
}

/** A labelled field of the public pages' plain forms (no antd), its hint and its error tied to its control. */
export function FormField({ id, label, hint, error, children, after }: FormFieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="contact-form__field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="contact-form__hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p id={`${id}-error`} className="contact-form__error">
          {error}
        </p>
      )}
      {after}
    </div>
  );
}
