import type { ReactNode, RefObject } from 'react';
import type { InputRef } from 'antd/es/input';
import Modal from 'antd/es/modal';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { focusFirstField } from './form-behaviour';

interface AuthModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The field the cursor goes to once the dialog has opened. */
  firstField: RefObject<InputRef | null>;
  children: ReactNode;
}

/**
 * The frame of the login and reset-password dialogs. Only its close button closes it: not Escape, not a click
 * beside it (a half-typed password is not lost by a stray tap).
 */
export function AuthModal({ open, title, onClose, firstField, children }: AuthModalProps) {
  return (
    <AntdScope>
      <Modal
        open={open}
        title={title}
        onCancel={onClose}
        footer={null}
        keyboard={false}
        mask={{ closable: false }}
        afterOpenChange={(opened) => opened && focusFirstField(firstField.current)}
        width={420}
      >
        {children}
      </Modal>
    </AntdScope>
  );
}
