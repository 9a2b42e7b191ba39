import type { ReactNode, RefObject } from 'react';
import Form, { type FormInstance } from 'antd/es/form';
import type { InputRef } from 'antd/es/input';
import Modal from 'antd/es/modal';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { focusFirstField, useRevalidateWhileWrong } from './form-behaviour';

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

interface AuthFormProps<Values> {
  /** Gives the form's fields their ids (login_email…): each dialog's differ, so labels find their input. */
  name: string;
  form: FormInstance<Values>;
  onFinish: (values: Values) => void;
  children: ReactNode;
}

/**
 * The form of the login and reset-password dialogs: labels above fields, no browser validation, each field checked
 * when the user leaves it and again at every keystroke once it shows a problem.
 */
export function AuthForm<Values>({ name, form, onFinish, children }: AuthFormProps<Values>) {
  const revalidateWhileWrong = useRevalidateWhileWrong(form);
  return (
    <Form
      name={name}
      form={form}
      layout="vertical"
      requiredMark={false}
      noValidate
      onFinish={onFinish}
      onValuesChange={revalidateWhileWrong}
    >
      {children}
    </Form>
  );
}
