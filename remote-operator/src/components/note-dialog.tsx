import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { operatorNamespace } from '../i18n/operator-namespace';

/** The longest note the server keeps with an action. */
export const noteMaxLength = 1000;

export interface NoteValues {
  note: string;
  reference: string;
}

interface NoteDialogProps {
  /** The button that opens the dialog. */
  label: string;
  title: string;
  text: string;
  /** Dismiss, suspend and lift need a note; elsewhere it is optional. */
  noteRequired: boolean;
  /** Mark refunded: the refund's reference, required. */
  askReference?: boolean;
  danger?: boolean;
  primary?: boolean;
  disabled?: boolean;
  /** Resolves true when the action went through: the dialog closes. */
  onConfirm: (values: NoteValues) => Promise<boolean>;
}

/** An action confirmed in a dialog, with the note the audit log keeps (and a reference where one is due). */
export function NoteDialog({
  label,
  title,
  text,
  noteRequired,
  askReference = false,
  danger = false,
  primary = false,
  disabled = false,
  onConfirm,
}: NoteDialogProps) {
  const { t } = useTranslation(operatorNamespace);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<NoteValues>();

  async function submit(values: NoteValues) {
    setBusy(true);
    try {
      const done = await onConfirm({ note: (values.note ?? '').trim(), reference: (values.reference ?? '').trim() });
      if (done) {
        setOpen(false);
        form.resetFields();
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        danger={danger}
        type={primary || danger ? 'primary' : 'default'}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <Modal
        open={open}
        title={title}
        onCancel={() => setOpen(false)}
        closable={{ 'aria-label': t('note.cancel') }}
        footer={null}
        width={480}
        destroyOnHidden
      >
        <p>{text}</p>
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void submit(values)}>
          {askReference && (
            <Form.Item
              name="reference"
              label={t('refunds.reference')}
              rules={[{ required: true, whitespace: true, message: t('refunds.referenceRequired') }]}
            >
              <Input maxLength={200} autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item
            name="note"
            label={noteRequired ? t('note.label') : t('note.optionalLabel')}
            rules={[{ required: noteRequired, whitespace: true, max: noteMaxLength, message: t('note.required') }]}
          >
            <Input.TextArea rows={3} maxLength={noteMaxLength} showCount />
          </Form.Item>
          <div className="console-dialog__actions">
            <Button onClick={() => setOpen(false)}>{t('note.cancel')}</Button>
            <Button htmlType="submit" type="primary" danger={danger} loading={busy}>
              {t('note.confirm')}
            </Button>
          </div>
        </Form>
      </Modal>
    </>
  );
}
