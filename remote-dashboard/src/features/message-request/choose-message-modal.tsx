import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Modal from 'antd/es/modal';
import Button from 'antd/es/button';
import Alert from 'antd/es/alert';
import Radio from 'antd/es/radio';
import Spin from 'antd/es/spin';
import type { Locale } from '@kabari/shared/i18n/locale';
import { isApiError } from '@kabari/shared/api/api-error';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { showToast } from '@kabari/shared/ui/toasts';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { fetchLimit, stillAhead } from '../../lib/send-limit';
import {
  fetchTemplates,
  previewMessage,
  sendMessage,
  type MessageChannel,
  type MessagePreview,
  type MessageTemplate,
  type NumberChannel,
} from './message-api';
import { VoiceNoteField, type VoiceNoteChoice } from '../../components/voice-note-field';
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

type Block =
  { kind: 'limited'; nextAllowedAt: string } | { kind: 'optedOut' } | { kind: 'refused'; message: string } | null;

const previewDelayMs = 300;

/** A preview and what it was made from: it is the exact message only while those are still the chosen ones. */
type PreviewState =
  | { kind: 'ready'; templateId: string; note: string; message: MessagePreview }
  | { kind: 'failed'; templateId: string; note: string; reason: string | null }
  | null;

/**
 * The choose-message step: a predefined template in the page's language, a personal note
 * (the only editable part), and the exact message from the server's preview. The 3-hour limit, an opt-out, a
 * daily limit reached and a country Kabari does not send SMS to are shown before sending, and again if the
 * server refuses.
 */
export function ChooseMessageModal({ open, channel, target, locale, onClose, onSent }: ChooseMessageModalProps) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const ids = useId();
  const [templates, setTemplates] = useState<MessageTemplate[] | null>(null);
  const [templatesFailed, setTemplatesFailed] = useState(false);
  const [templateId, setTemplateId] = useState<MessageTemplate['id'] | null>(null);
  const [note, setNote] = useState('');
  const [noteMaxLength, setNoteMaxLength] = useState<number | null>(null);
  const [previewState, setPreviewState] = useState<PreviewState>(null);
  const [block, setBlock] = useState<Block>(null);
  const [sending, setSending] = useState(false);
  const [voiceNote, setVoiceNote] = useState<VoiceNoteChoice | null>(null);
  const [voiceBusy, setVoiceBusy] = useState(false);
  // WhatsApp is offered for a number when the server says it can send it (its limit answer), listed first; SMS stays
  // chosen until the requester picks WhatsApp, which sends without their note.
  const [whatsAppOffered, setWhatsAppOffered] = useState(false);
  const [sendBy, setSendBy] = useState<NumberChannel>('sms');

  // Templates and the limit (the parent mounts the modal anew for each target).
  useEffect(() => {
    if (!open) return;
    let current = true;
    fetchTemplates(channel, locale)
      .then(({ items, noteMaxLength: max }) => {
        if (!current) return;
        setTemplates(items);
        setNoteMaxLength(max);
        const first = items[0];
        setTemplateId(first?.id ?? null);
        setNote(first?.defaultNote ?? '');
      })
      .catch(() => current && setTemplatesFailed(true));
    fetchLimit(channel === 'sms' ? { channel, number: target } : { channel, email: target })
      .then((limit) => {
        if (!current) return;
        if (channel === 'sms' && limit.whatsapp) setWhatsAppOffered(true);
        if (limit.optedOut) setBlock({ kind: 'optedOut' });
        else if (stillAhead(limit.nextAllowedAt)) setBlock({ kind: 'limited', nextAllowedAt: limit.nextAllowedAt });
        else if (limit.refusal) setBlock({ kind: 'refused', message: limit.refusal.message });
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
        .then((message) => {
          if (current) setPreviewState({ kind: 'ready', templateId, note, message });
        })
        .catch((error: unknown) => {
          // The server's reason (in the page's language) when it refused the note; a failed preview is cleared.
          const reason = isApiError(error) && error.status === 400 ? error.message : null;
          if (current) setPreviewState({ kind: 'failed', templateId, note, reason });
        });
    }, previewDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, channel, templateId, note, locale]);

  function chooseTemplate(id: string) {
    const template = templates?.find((item) => item.id === id);
    if (!template) return;
    setTemplateId(template.id);
    setNote(template.defaultNote);
  }

  // Only a preview of exactly the chosen template and note may be sent; while typing, the old one is out of date.
  const upToDate = previewState?.templateId === templateId && previewState.note === note;
  const preview = previewState?.kind === 'ready' ? previewState.message : null;
  const previewFailure = previewState?.kind === 'failed' ? previewState : null;
  const canSend =
    Boolean(templateId) && !block && upToDate && previewState?.kind === 'ready' && !voiceBusy && !voiceNote?.problem;

  async function send() {
    if (!canSend || sending) return;
    setSending(true);
    const result = await sendMessage(channel, {
      target,
      templateId,
      note: note.trim(),
      locale,
      ...(voiceNote ? { voiceNote: { id: voiceNote.id, ...(voiceNote.text ? { text: voiceNote.text } : {}) } } : {}),
      ...(channel === 'sms' ? { sendBy } : {}),
    });
    setSending(false);
    const byWhatsApp = channel === 'sms' && sendBy === 'whatsapp';
    const sent = byWhatsApp
      ? t('message.sentWhatsApp')
      : channel === 'sms'
        ? t('message.sentSms')
        : t('message.sentEmail');
    const failed = byWhatsApp
      ? t('message.failedWhatsApp')
      : channel === 'sms'
        ? t('message.failedSms')
        : t('message.failedEmail');
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
      case 'refused':
        showToast('error', failed);
        setBlock({ kind: 'refused', message: result.message });
        return;
      default:
        showToast('error', result.message ? `${failed}: ${result.message}` : failed);
    }
  }

  const noteId = `${ids}-note`;
  const noteHintId = `${ids}-note-hint`;
  const noteCountId = `${ids}-note-count`;
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
        <Button key="send" type="primary" loading={sending} disabled={!canSend} onClick={() => void send()}>
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
      {block?.kind === 'refused' && (
        <Alert type="warning" showIcon role="alert" data-testid="send-refused" title={block.message} />
      )}
      {block?.kind === 'optedOut' && (
        <Alert type="info" showIcon role="alert" title={t('message.optedOut', { target })} />
      )}
      {templatesFailed && <Alert type="error" showIcon title={t('message.templatesFailed')} />}
      {!templates && !templatesFailed && <Spin aria-label={t('message.loading')} />}
      {templates && (
        <>
          {whatsAppOffered && (
            <fieldset className="choose-message__templates">
              <legend>{t('message.sendBy')}</legend>
              <Radio.Group
                name={`${ids}-send-by`}
                value={sendBy}
                onChange={(event) => setSendBy(event.target.value === 'sms' ? 'sms' : 'whatsapp')}
                options={[
                  { value: 'whatsapp', label: t('message.sendByWhatsApp') },
                  { value: 'sms', label: t('message.sendBySms') },
                ]}
              />
              {sendBy === 'whatsapp' && (
                <p className="choose-message__hint" data-testid="whatsapp-hint">
                  {t('message.whatsAppHint')}
                </p>
              )}
            </fieldset>
          )}
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
              maxLength={noteMaxLength ?? undefined}
              value={note}
              aria-describedby={`${noteHintId} ${noteCountId}`}
              onChange={(event) => setNote(event.target.value)}
            />
            {noteMaxLength !== null && (
              <p id={noteCountId} className="choose-message__count" data-testid="note-count">
                {t('message.noteCount', { count: note.length, max: noteMaxLength })}
              </p>
            )}
          </div>
          <VoiceNoteField locale={locale} onChange={setVoiceNote} onBusy={setVoiceBusy} />
          <section className="choose-message__preview" aria-labelledby={`${ids}-preview`}>
            <h3 id={`${ids}-preview`}>
              {whatsAppOffered && sendBy === 'whatsapp' ? t('message.previewSmsInstead') : t('message.preview')}
            </h3>
            {previewFailure && (
              <div data-testid="preview-failed">
                <Alert type="error" showIcon title={previewFailure.reason ?? t('message.previewFailed')} />
              </div>
            )}
            {preview && (
              <div
                data-testid="message-preview"
                aria-live="polite"
                aria-busy={!upToDate}
                className={upToDate ? undefined : 'choose-message__stale'}
              >
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
