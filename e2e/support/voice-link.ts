// A trackable link that carries a voice note, made through the API as the dashboard makes it: the audio uploaded
// as a draft (POST /api/v1/voice-notes), then the link with it (POST /api/v1/links). The audio is silence in a real
// WebM file (server/test/support/voice-audio.ts), so that a spec or the bench can open a consent page with a note
// without recording one in a browser first.
import { voiceAudio } from '../../server/test/support/voice-audio';
import { call, type Subscriber } from './subscriber';

export interface VoiceNoteLink {
  /** The consent page's address, as the requester copies it. */
  url: string;
  token: string;
  requestId: string;
  voiceNoteId: string;
}

export interface VoiceNoteLinkOptions {
  /** The link's title (the recipient's name to the requester). */
  title?: string;
  /** How long the note is. */
  seconds?: number;
  /** The requester's text beside the note; none when undefined. */
  text?: string;
  locale?: 'en' | 'id';
}

const sessionOf = (subscriber: Pick<Subscriber, 'token'>) => ({ authorization: subscriber.token });

/** A new link from `subscriber`, with the voice note `voiceNote` (an uploaded draft) when given. */
export async function createLink(
  baseURL: string,
  subscriber: Pick<Subscriber, 'token'>,
  { title = 'Mum', locale = 'en', voiceNote }: { title?: string; locale?: 'en' | 'id'; voiceNote?: object } = {},
): Promise<{ url: string; token: string; requestId: string }> {
  const { request } = await call<{ request: { id: string; url: string } }>(
    baseURL,
    '/api/v1/links',
    { method: 'POST', body: JSON.stringify({ title, locale, ...(voiceNote ? { voiceNote } : {}) }) },
    sessionOf(subscriber),
  );
  const token = new URL(request.url).searchParams.get('token');
  if (!token) throw new Error(`the link has no token: ${request.url}`);
  return { url: request.url, token, requestId: request.id };
}

/** A new link from `subscriber` with a voice note of `seconds` and, if given, its text. */
export async function linkWithVoiceNote(
  baseURL: string,
  subscriber: Pick<Subscriber, 'token'>,
  { title, seconds = 12, text, locale }: VoiceNoteLinkOptions = {},
): Promise<VoiceNoteLink> {
  const { voiceNote } = await call<{ voiceNote: { id: string } }>(
    baseURL,
    '/api/v1/voice-notes',
    { method: 'POST', body: new Uint8Array(await voiceAudio(seconds)) },
    { ...sessionOf(subscriber), 'content-type': 'audio/webm' },
  );
  const link = await createLink(baseURL, subscriber, {
    title,
    locale,
    voiceNote: { id: voiceNote.id, ...(text ? { text } : {}) },
  });
  return { ...link, voiceNoteId: voiceNote.id };
}
