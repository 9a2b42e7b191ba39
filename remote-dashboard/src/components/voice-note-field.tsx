import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { VoiceRecorder } from '@kabari/shared/voice/voice-recorder';
import { findLure } from '@kabari/rules/lure-check';
import { dashboardRequestsNamespace } from '../i18n/dashboard-requests-namespace';
import { removeVoiceNote, uploadVoiceNote, voiceNoteAudioUrl } from '../lib/voice-note-api';
import './voice-note-field.css';

/** What a request carries of the voice note: the recorded draft's id, and the text beside it. */
export interface VoiceNoteChoice {
  id: string;
  text: string;
  /** Why the text cannot be sent (a link or a phone number), or null: the request waits until it is fixed. */
  problem: string | null;
}

export const VOICE_TEXT_MAX_LENGTH = 200;

interface VoiceNoteFieldProps {
  locale: Locale;
  onChange: (choice: VoiceNoteChoice | null) => void;
  /** True while recording or saving: the request waits for the note. */
  onBusy: (busy: boolean) => void;
}

/** An optional voice note for a new request (SMS, email or link), recorded or chosen here, with its text. */
export function VoiceNoteField({ locale, onChange, onBusy }: VoiceNoteFieldProps) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const ids = useId();
  const [noteId, setNoteId] = useState<string | null>(null);
  const [text, setText] = useState('');
  // The recipient reads the text on the consent page: no link or number to go elsewhere, as the server rules.
  const problemOf = (value: string) => {
    const lure = findLure(value);
    if (lure?.kind === 'link') return t('voice.textWithLink');
    if (lure?.kind === 'phone') return t('voice.textWithPhone');
    return null;
  };
  const problem = problemOf(text);

  const choose = (id: string | null) => {
    setNoteId(id);
    onChange(id ? { id, text: text.trim(), problem } : null);
  };
  const upload = async (audio: Blob) => {
    const note = await uploadVoiceNote(audio);
    choose(note.id);
    return { durationMs: note.durationMs, src: voiceNoteAudioUrl(note.id) };
  };
  const remove = async () => {
    if (noteId) await removeVoiceNote(noteId);
    choose(null);
  };

  return (
    <fieldset className="voice-note-field">
      <legend>{t('voice.title')}</legend>
      <p className="voice-note-field__intro">{t('voice.intro')}</p>
      <VoiceRecorder locale={locale} upload={upload} remove={remove} onBusy={onBusy} />
      {noteId && (
        <div className="voice-note-field__text">
          <label htmlFor={`${ids}-text`}>{t('voice.text')}</label>
          <p id={`${ids}-hint`} className="voice-note-field__hint">
            {t('voice.textHint')}
          </p>
          <input
            id={`${ids}-text`}
            type="text"
            maxLength={VOICE_TEXT_MAX_LENGTH}
            value={text}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${ids}-hint${problem ? ` ${ids}-error` : ''}`}
            onChange={(event) => {
              setText(event.target.value);
              const value = event.target.value;
              onChange({ id: noteId, text: value.trim(), problem: problemOf(value) });
            }}
          />
          {problem && (
            <p id={`${ids}-error`} className="voice-note-field__error">
              {problem}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
