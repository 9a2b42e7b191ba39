import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Alert from 'antd/es/alert';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { showToast } from '@kabari/shared/ui/toasts';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { fetchLimit, stillAhead } from '../../lib/send-limit';
import { createLink } from './link-api';
import { VoiceNoteField, type VoiceNoteChoice } from '../../components/voice-note-field';
import './link-generator.css';

export interface LinkGeneratorProps {
  locale: Locale;
  onCreated: (request: LocationRequest) => void;
  onSeeHistory: () => void;
}

const titleMaxLength = 80;

/** Copies with the Clipboard API; false when the browser refuses (no permission, insecure page). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The link generator: a title only the requester sees, generate, copy, see the history,
 * generate a new one. One new link per 3 hours: the next time is shown before trying.
 */
export function LinkGenerator({ locale, onCreated, onSeeHistory }: LinkGeneratorProps) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const ids = useId();
  const [title, setTitle] = useState('');
  const [titleMissing, setTitleMissing] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [link, setLink] = useState<LocationRequest | null>(null);
  const [nextAllowedAt, setNextAllowedAt] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [expiryDays, setExpiryDays] = useState<number | null>(null);
  const [voiceNote, setVoiceNote] = useState<VoiceNoteChoice | null>(null);
  const [voiceBusy, setVoiceBusy] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  const linkOutput = useRef<HTMLInputElement>(null);

  function refreshLimit() {
    fetchLimit({ channel: 'link' })
      .then((limit) => {
        setNextAllowedAt(stillAhead(limit.nextAllowedAt) ? limit.nextAllowedAt : null);
        if (limit.linkExpiryDays) setExpiryDays(limit.linkExpiryDays);
      })
      .catch(() => undefined);
  }
  useEffect(refreshLimit, []);

  async function generate(event: FormEvent) {
    event.preventDefault();
    if (generating || voiceBusy || voiceNote?.problem) return;
    if (!title.trim()) {
      setTitleMissing(true);
      titleInput.current?.focus();
      return;
    }
    setGenerating(true);
    setFailure(null);
    const result = await createLink({
      title: title.trim(),
      locale,
      ...(voiceNote ? { voiceNote: { id: voiceNote.id, ...(voiceNote.text ? { text: voiceNote.text } : {}) } } : {}),
    });
    setGenerating(false);
    if (result.outcome === 'sent') {
      setVoiceNote(null);
      setLink(result.request);
      onCreated(result.request);
      refreshLimit();
      requestAnimationFrame(() => linkOutput.current?.select());
    } else if (result.outcome === 'limited') {
      setNextAllowedAt(result.nextAllowedAt);
    } else if (result.outcome === 'failed' || result.outcome === 'refused') {
      setFailure(result.message ?? t('link.failed'));
    }
  }

  async function copy() {
    if (!link?.url) return;
    const copied = await copyText(link.url);
    showToast(copied ? 'success' : 'error', copied ? t('link.copied') : t('link.copyFailed'));
  }

  function newLink() {
    setLink(null);
    setTitle('');
    setTitleMissing(false);
    requestAnimationFrame(() => titleInput.current?.focus());
  }

  const limitNotice = stillAhead(nextAllowedAt) && (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={t('link.limited', { time: formatTime(nextAllowedAt, locale) })}
    />
  );

  if (link) {
    return (
      <div className="link-generator">
        <label htmlFor={`${ids}-url`} className="link-generator__label">
          {t('link.ready')}: {link.title}
        </label>
        <div className="link-generator__copy">
          <input id={`${ids}-url`} ref={linkOutput} readOnly value={link.url ?? ''} />
          <Button type="primary" onClick={() => void copy()}>
            {t('link.copy')}
          </Button>
        </div>
        {link.expiresAt && (
          <p className="link-generator__hint">{t('link.expires', { time: formatTime(link.expiresAt, locale) })}</p>
        )}
        <div className="link-generator__actions">
          <Button onClick={onSeeHistory}>{t('link.seeHistory')}</Button>
          <Button onClick={newLink}>{t('link.newLink')}</Button>
        </div>
        {limitNotice}
      </div>
    );
  }

  return (
    <form className="link-generator" noValidate onSubmit={(event) => void generate(event)}>
      <p className="link-generator__intro">
        {t('link.intro')}
        {expiryDays !== null && <> {t('link.lifetime', { count: expiryDays })}</>}
      </p>
      {limitNotice}
      <label htmlFor={`${ids}-title`} className="link-generator__label">
        {t('link.title')}
      </label>
      <p id={`${ids}-title-hint`} className="link-generator__hint">
        {t('link.titleHint')}
      </p>
      <input
        id={`${ids}-title`}
        ref={titleInput}
        className="link-generator__title"
        maxLength={titleMaxLength}
        value={title}
        onChange={(event) => {
          setTitle(event.target.value);
          if (event.target.value.trim()) setTitleMissing(false);
        }}
        aria-invalid={titleMissing ? true : undefined}
        aria-describedby={`${ids}-title-hint${titleMissing ? ` ${ids}-title-error` : ''}`}
      />
      {titleMissing && (
        <p id={`${ids}-title-error`} className="link-generator__error">
          {t('link.titleRequired')}
        </p>
      )}
      {failure && (
        <p className="link-generator__error" role="alert">
          {failure}
        </p>
      )}
      <VoiceNoteField locale={locale} onChange={setVoiceNote} onBusy={setVoiceBusy} />
      <div className="link-generator__actions">
        <Button
          type="primary"
          htmlType="submit"
          loading={generating}
          disabled={stillAhead(nextAllowedAt) || voiceBusy || Boolean(voiceNote?.problem)}
        >
          {generating ? t('link.generating') : t('link.generate')}
        </Button>
        <Button onClick={onSeeHistory}>{t('link.seeHistory')}</Button>
      </div>
    </form>
  );
}
