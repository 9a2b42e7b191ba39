import type { Locale } from '@kabari/shared/i18n/locale';
import { VoiceRecorder } from '@kabari/shared/voice/voice-recorder';
import { shareApi, type LinkInfo } from '../../lib/share-api';
import { shareText } from '../../lib/share-text';

interface VoiceReplyProps {
  token: string;
  name: string;
  locale: Locale;
  reply: LinkInfo['voiceReply'];
}

/** While sharing, the recipient may answer by voice; a new reply replaces the one before. Loaded when shown. */
export default function VoiceReply({ token, name, locale, reply }: VoiceReplyProps) {
  const t = shareText(locale);
  const src = `/api/v1/share/links/${encodeURIComponent(token)}/voice-reply`;
  return (
    <section className="recipient__card" aria-labelledby="voice-reply-title">
      <h2 id="voice-reply-title">{t('voice.replyTitle')}</h2>
      <p>{t('voice.replyText', { name })}</p>
      <VoiceRecorder
        locale={locale}
        upload={async (audio) => {
          const { voiceReply } = await shareApi.voiceReply(token, audio, locale);
          // The same address plays the newest reply: its time tells the browser it is a new one.
          return { durationMs: voiceReply.durationMs, src: `${src}?at=${encodeURIComponent(voiceReply.recordedTime)}` };
        }}
        initial={reply ? { durationMs: reply.durationMs, src } : null}
      />
    </section>
  );
}
