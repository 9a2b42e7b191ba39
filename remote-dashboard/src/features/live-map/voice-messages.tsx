import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { formatTime } from '@kabari/shared/i18n/format-time';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { clockDuration } from '@kabari/shared/voice/clock-duration';
import { dashboardLiveNamespace } from '../../i18n/dashboard-live-namespace';
import { voiceNoteAudioUrl } from '../../lib/voice-note-api';

/**
 * Beside the positions: the voice note sent with the request, and the recipient's reply by voice with its time.
 * The browser's own players; nothing is fetched until Play.
 */
export function VoiceMessages({ request, name, locale }: { request: LocationRequest; name: string; locale: Locale }) {
  const { t } = useTranslation(dashboardLiveNamespace);
  const { voiceNote, voiceReply } = request;
  if (!voiceNote && !voiceReply) return null;
  const yours = voiceNote && t('map.voice.yours', { duration: clockDuration(voiceNote.durationMs) });
  const reply =
    voiceReply &&
    t('map.voice.reply', {
      name: name || t('map.voice.theRecipient'),
      duration: clockDuration(voiceReply.durationMs),
      time: formatTime(voiceReply.recordedTime, locale),
    });
  return (
    <section className="live-map__voice" aria-labelledby={`voice-${request.id}`}>
      <h3 id={`voice-${request.id}`}>{t('map.voice.title')}</h3>
      {voiceReply && (
        <figure data-testid="voice-reply">
          <figcaption id={`voice-reply-${request.id}`}>{reply}</figcaption>
          <audio
            controls
            preload="none"
            src={voiceNoteAudioUrl(voiceReply.id)}
            aria-labelledby={`voice-reply-${request.id}`}
          />
        </figure>
      )}
      {voiceNote && (
        <figure data-testid="voice-note">
          <figcaption id={`voice-note-${request.id}`}>{yours}</figcaption>
          {voiceNote.text && <p>{voiceNote.text}</p>}
          <audio
            controls
            preload="none"
            src={voiceNoteAudioUrl(voiceNote.id)}
            aria-labelledby={`voice-note-${request.id}`}
          />
        </figure>
      )}
    </section>
  );
}
