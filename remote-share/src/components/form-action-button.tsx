import type { ReactNode } from 'react';

interface FormActionButtonProps {
  /** The form's `action` field, which the server reads when the page's script has not run. */
  action: string;
  primary?: boolean;
  disabled?: boolean;
  /** What the page's script does instead of sending the form. */
  onAction: () => void;
  children: ReactNode;
}

/**
 * A button of one of the recipient's plain forms: without the page's script it sends the form to the server, with
 * the script the page does the same through the API and stays.
 */
export function FormActionButton({ action, primary = false, disabled, onAction, children }: FormActionButtonProps) {
  return (
    <button
      type="submit"
      name="action"
      value={action}
      className={primary ? 'recipient__button recipient__button--primary' : 'recipient__button'}
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
