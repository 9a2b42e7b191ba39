import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Modal from 'antd/es/modal';
import Button from 'antd/es/button';
import Alert from 'antd/es/alert';
import Radio from 'antd/es/radio';
import Spin from 'antd/es/spin';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { showToast } from '@kabari/shared/requests/show-toast';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';
import { formatTime, stillAhead } from '../history/format-time';
import {
  fetchLimit,
  fetchTemplates,
  previewMessage,
  sendMessage,
  type MessageChannel,
  type MessagePreview,
  type MessageTemplate,
} from './message-api';
import './choose-message-modal.css';

export interface ChooseMessageModalProps {
  open: boolean;
  channel: MessageChannel;
  /** The number (E.164) or email address. */
  target: string;
  locale: Locale;
  onClose: () => void;
  onSent: (request: LocationRequest) => void;
}

type Block = { kind: 'limited'; nextAllowedAt: string } | { kind: 'optedOut' } | null;

const noteMaxLength = 200;
const previewDelayMs = 300;

/**
 * The choose-message step (design.md §1.6): a predefined template in the page's language, a personal note
 * (the only editable part), and the exact message from the server's preview. The 3-hour limit and an
 * opt-out are shown before sending, and again if the server refuses.
 */
export function ChooseMessageModal({ open, channel, target, locale, onClose, onSent }: ChooseMessageModalProps) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const ids = useId();
  const [templates, setTemplates] = useState<MessageTemplate[] | null>(null);
  const [templatesFailed, setTemplatesFailed] = useState(false);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [preview, setPreview] = useState<MessagePreview | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const [block, setBlock] = useState<Block>(null);
  const [sending, setSending] = useState(false);

  // Templates and the limit (the parent mounts the modal anew for each target).
  useEffect(() => {
    if (!open) return;
    let current = true;
    fetchTemplates(channel, locale)
      .then(({ items }) => {
        if (!current) return;
        setTemplates(items);
        const first = items[0];
        setTemplateId(first?.id ?? null);
        setNote(first?.defaultNote ?? '');
      })
      .catch(() => current && setTemplatesFailed(true));
    fetchLimit(channel === 'sms' ? { channel, number: target } : { channel, email: target })
      .then((limit) => {
        if (!current) return;
        if (limit.optedOut) setBlock({ kind: 'optedOut' });
        else if (stillAhead(limit.nextAllowedAt)) setBlock({ kind: 'limited', nextAllowedAt: limit.nextAllowedAt });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [open, channel, target, locale]);

  // The preview follows the note as it is typed, a moment after the typing stops.
  useEffect(() => {
    if (!open || !templateId) return;
    let current = true;
    const timer = setTimeout(() => {
      previewMessage({ channel, templateId, note, locale })
        .then((result) => {
          if (!current) return;
          setPreview(result);
          setPreviewFailed(false);
        })
        .catch(() => current && setPreviewFailed(true));
    }, previewDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, channel, templateId, note, locale]);

  function chooseTemplate(id: string) {
    const template = templates?.find((item) => item.id === id);
    setTemplateId(id);
    if (template) setNote(template.defaultNote);
  }

  async function send() {
    if (!templateId || sending || block) return;
    setSending(true);
    const result = await sendMessage(channel, { target, templateId, note: note.trim(), locale });
    setSending(false);
    const sent = channel === 'sms' ? t('message.sentSms') : t('message.sentEmail');
    const failed = channel === 'sms' ? t('message.failedSms') : t('message.failedEmail');
    switch (result.outcome) {
      case 'sent':
        showToast('success', sent);
        onSent(result.request);
        return;
      case 'limited':
        showToast('error', failed);
        if (result.nextAllowedAt) setBlock({ kind: 'limited', nextAllowedAt: result.nextAllowedAt });
        return;
      case 'optedOut':
        showToast('error', failed);
        setBlock({ kind: 'optedOut' });
        return;
      default:
        showToast('error', result.message ? `${failed}: ${result.message}` : failed);
    }
  }

  const noteId = `${ids}-note`;
  const noteHintId = `${ids}-note-hint`;
  return (
    <Modal
      open={open}
      title={t('message.title')}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('message.cancel')}
        </Button>,
        <Button
          key="send"
          type="primary"
          loading={sending}
          disabled={!templateId || Boolean(block) || !preview}
          onClick={() => void send()}
        >
          {sending ? t('message.sending') : t('message.send')}
        </Button>,
      ]}
    >
      <p className="choose-message__to">{t('message.to', { target })}</p>
      {block?.kind === 'limited' && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('message.limited', { target, time: formatTime(block.nextAllowedAt, locale) })}
        />
      )}
      {block?.kind === 'optedOut' && (
        <Alert type="info" showIcon role="alert" title={t('message.optedOut', { target })} />
      )}
      {templatesFailed && <Alert type="error" showIcon title={t('message.templatesFailed')} />}
      {!templates && !templatesFailed && <Spin aria-label={t('message.loading')} />}
      {templates && (
        <>
          <fieldset className="choose-message__templates">
            <legend>{t('message.template')}</legend>
            <Radio.Group
              value={templateId}
              onChange={(event) => chooseTemplate(String(event.target.value))}
              options={templates.map((template) => ({ value: template.id, label: template.name }))}
            />
          </fieldset>
          <div className="choose-message__note">
            <label htmlFor={noteId}>{t('message.note')}</label>
            <p id={noteHintId} className="choose-message__hint">
              {t('message.noteHint')}
            </p>
            <textarea
              id={noteId}
              rows={3}
              maxLength={noteMaxLength}
              value={note}
              aria-describedby={noteHintId}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
          <section className="choose-message__preview" aria-labelledby={`${ids}-preview`}>
            <h3 id={`${ids}-preview`}>{t('message.preview')}</h3>
            {previewFailed && <p>{t('message.previewFailed')}</p>}
            {preview && (
              <div data-testid="message-preview" aria-live="polite">
                {preview.subject && (
                  <p className="choose-message__subject">{t('message.previewSubject', { subject: preview.subject })}</p>
                )}
                <pre className="choose-message__text">{preview.text}</pre>
              </div>
            )}
          </section>
        </>
      )}
    </Modal>
  );
}
