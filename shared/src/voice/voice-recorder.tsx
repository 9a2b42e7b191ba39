import { useEffect, useId, useState, type ChangeEvent } from 'react';
import type { Locale } from '../i18n/locale';
import { canRecord, useVoiceRecorder, VOICE_MAX_MS } from './use-voice-recorder';
import { clockDuration } from './clock-duration';
import { voiceText } from './voice-texts';
import './voice-recorder.css';

/** A voice message already kept by the server, and where its audio is. */
export interface SavedVoice {
  durationMs: number;
  src: string;
}

export interface VoiceRecorderProps {
  locale: Locale;
  /**
   * Sends a recording or a chosen file: resolves to what the server kept (the length it read, and where its copy
   * plays from: a browser's own recording may state no length, the server's copy does), or rejects with its reason.
   */
  upload: (audio: Blob) => Promise<SavedVoice>;
  /** Forgets the message sent (Remove); without it, a new recording simply replaces the last one. */
  remove?: () => Promise<void>;
  /** A message sent before this page opened (the recipient's earlier reply). */
  initial?: SavedVoice | null;
  /** True while recording or saving, so the form around waits. */
  onBusy?: (busy: boolean) => void;
}

/**
 * Record a voice message (or choose an audio file where recording is not offered), listen to it, record again or
 * remove it. What is recorded goes to the server as soon as recording stops, which reads and keeps it; the player
 * then plays the server's copy, as the other side will hear it. The microphone is asked for on Record only, and a
 * refusal is explained.
 */
export function VoiceRecorder({ locale, upload, remove, initial = null, onBusy }: VoiceRecorderProps) {
  const say = voiceText(locale);
  const ids = useId();
  const [saved, setSaved] = useState<SavedVoice | null>(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recordable] = useState(canRecord);

  async function send(audio: Blob) {
    setSaving(true);
    setError(null);
    try {
      setSaved(await upload(audio));
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : say('failed'));
    } finally {
      setSaving(false);
    }
  }

  const { state, start, stop } = useVoiceRecorder((recording) => void send(recording));
  const busy = saving || state.kind === 'asking' || state.kind === 'recording';
  useEffect(() => onBusy?.(busy), [busy, onBusy]);

  async function record() {
    setError(null);
    if (saved && remove) {
      await discard();
    }
    await start();
  }

  async function discard() {
    try {
      await remove?.();
      setSaved(null);
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : say('failed'));
    }
  }

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file)
      void (async () => {
        if (saved && remove) await discard();
        await send(file);
      })();
  }

  const recording = state.kind === 'recording' ? state : null;
  // Said when Record was pressed and the microphone could not be had.
  const problem = state.kind === 'denied' ? say('denied') : state.kind === 'noMicrophone' ? say('noMicrophone') : null;
  return (
    <div className="voice-recorder">
      {saved && !recording && (
        <div className="voice-recorder__saved">
          <audio
            controls
            preload="metadata"
            src={saved.src}
            aria-label={say('listen', { duration: clockDuration(saved.durationMs) })}
          />
          <span className="voice-recorder__length">{say('ready', { duration: clockDuration(saved.durationMs) })}</span>
        </div>
      )}
      {recording && (
        <div className="voice-recorder__recording">
          <p aria-live="polite">
            {say('recording', {
              elapsed: clockDuration(Math.floor(recording.elapsedMs / 1000) * 1000),
              max: clockDuration(VOICE_MAX_MS),
            })}
          </p>
          <meter id={`${ids}-level`} aria-label={say('level')} min={0} max={1} value={recording.level} />
        </div>
      )}
      {state.kind === 'asking' && <p aria-live="polite">{say('asking')}</p>}
      {saving && <p aria-live="polite">{say('saving')}</p>}
      {problem && (
        <p className="voice-recorder__problem" role="alert">
          {problem}
        </p>
      )}
      {error && (
        <p className="voice-recorder__problem" role="alert" data-testid="voice-error">
          {error}
        </p>
      )}
      <div className="voice-recorder__actions">
        {recording ? (
          <button type="button" className="voice-recorder__button" onClick={stop}>
            {say('stop')}
          </button>
        ) : (
          recordable && (
            <button
              type="button"
              className="voice-recorder__button"
              disabled={saving || state.kind === 'asking'}
              onClick={() => void record()}
            >
              {saved ? say('recordAgain') : say('record')}
            </button>
          )
        )}
        {saved && remove && !recording && (
          <button type="button" className="voice-recorder__button" disabled={saving} onClick={() => void discard()}>
            {say('remove')}
          </button>
        )}
      </div>
      {!recording && (
        <p className="voice-recorder__file">
          <label htmlFor={`${ids}-file`}>{say('chooseFile')}</label>
          <input id={`${ids}-file`} type="file" accept="audio/*" disabled={saving} onChange={chooseFile} />
        </p>
      )}
      <p className="voice-recorder__hint">{recordable ? say('limit') : say('cannotRecord')}</p>
    </div>
  );
}
