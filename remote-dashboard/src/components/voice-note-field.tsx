import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { VoiceRecorder } from '@kabari/shared/voice/voice-recorder';
import { dashboardRequestsNamespace } from '../i18n/dashboard-requests-namespace';
import { removeVoiceNote, uploadVoiceNote, voiceNoteAudioUrl } from '../lib/voice-note-api';
import './voice-note-field.css';

/** What a request carries of the voice note: the recorded draft's id, and the text beside it. */
export interface VoiceNoteChoice {
  id: string;
  text: string;
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

  const choose = (id: string | null) => {
    setNoteId(id);
    onChange(id ? { id, text: text.trim() } : null);
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
            aria-describedby={`${ids}-hint`}
            onChange={(event) => {
              setText(event.target.value);
              onChange({ id: noteId, text: event.target.value.trim() });
            }}
          />
        </div>
      )}
    </fieldset>
  );
}
