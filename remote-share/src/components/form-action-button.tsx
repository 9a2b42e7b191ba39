import type { ReactNode } from 'react';

interface FormActionButtonProps {
  /** The form's `action` field, which the server reads when the page's script has not run. */
  action: string;
  primary?: boolean;
  /** An action that cannot be undone (erasing), drawn as such. */
  danger?: boolean;
  /** The id of the text that says what the button does. */
  describedBy?: string;
  disabled?: boolean;
  /** What the page's script does instead of sending the form. */
  onAction: () => void;
  children: ReactNode;
}

/**
 * A button of one of the recipient's plain forms: without the page's script it sends the form to the server, with
 * the script the page does the same through the API and stays.
 */
export function FormActionButton({
  action,
  primary = false,
  danger = false,
  describedBy,
  disabled,
  onAction,
  children,
}: FormActionButtonProps) {
  const variant = danger ? ' recipient__button--danger' : primary ? ' recipient__button--primary' : '';
  return (
    <button
      type="submit"
      name="action"
      value={action}
      className={`recipient__button${variant}`}
      aria-describedby={describedBy}
      onClick={(event) => {
        event.preventDefault();
        onAction();
      }}
      disabled={disabled}
    >
      {children}
    </button>
  );
}
