import { clockDuration } from '@kabari/shared/voice/clock-duration';
import type { LinkInfo } from '../lib/share-api';
import { useShareText } from '../lib/share-text';

interface VoiceNotePlayerProps {
  token: string;
  name: string;
  voiceNote: NonNullable<LinkInfo['voiceNote']>;
}

/**
 * The requester's voice note on the consent page: the browser's own player and the requester's text. Nothing is
 * fetched until Play (preload none), so the page loads as fast as without it, and no script is needed.
 */
export function VoiceNotePlayer({ token, name, voiceNote }: VoiceNotePlayerProps) {
  const t = useShareText();
  const label = t('voice.from', { name, duration: clockDuration(voiceNote.durationMs) });
  return (
    <section className="recipient__voice" aria-labelledby="voice-note-title">
      <h2 id="voice-note-title">{label}</h2>
      <audio
        controls
        preload="none"
        src={`/api/v1/share/links/${encodeURIComponent(token)}/voice-note`}
        aria-labelledby="voice-note-title"
      />
      {voiceNote.text && <p>{t('voice.wrote', { name, text: voiceNote.text })}</p>}
    </section>
  );
}
