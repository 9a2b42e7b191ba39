// A trackable link that carries a voice note, made through the API as the dashboard makes it: the audio uploaded
// as a draft (POST /api/v1/voice-notes), then the link with it (POST /api/v1/links). The audio is silence in a real
// WebM file (server/test/support/voice-audio.ts), so that a spec or the bench can open a consent page with a note
// without recording one in a browser first.
import { voiceAudio } from '../../server/test/support/voice-audio';
import type { Subscriber } from './subscriber';

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

async function dataOf<T>(response: Response, label: string): Promise<T> {
  const body = (await response.json().catch(() => null)) as { data: T; message?: string } | null;
  if (!response.ok || !body) throw new Error(`${label} answered ${response.status}: ${body?.message ?? 'no JSON'}`);
  return body.data;
}

const sessionOf = (subscriber: Pick<Subscriber, 'token'>) => ({
  authorization: subscriber.token,
  accept: 'application/json',
});

/** A new link from `subscriber`, with the voice note `voiceNote` (an uploaded draft) when given. */
export async function createLink(
  baseURL: string,
  subscriber: Pick<Subscriber, 'token'>,
  { title = 'Mum', locale = 'en', voiceNote }: { title?: string; locale?: 'en' | 'id'; voiceNote?: object } = {},
): Promise<{ url: string; token: string; requestId: string }> {
  const { request } = await dataOf<{ request: { id: string; url: string } }>(
    await fetch(new URL('/api/v1/links', baseURL), {
      method: 'POST',
      headers: { ...sessionOf(subscriber), 'content-type': 'application/json' },
      body: JSON.stringify({ title, locale, ...(voiceNote ? { voiceNote } : {}) }),
    }),
    'create link',
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
  const { voiceNote } = await dataOf<{ voiceNote: { id: string } }>(
    await fetch(new URL('/api/v1/voice-notes', baseURL), {
      method: 'POST',
      headers: { ...sessionOf(subscriber), 'content-type': 'audio/webm' },
      body: new Uint8Array(await voiceAudio(seconds)),
    }),
    'voice note upload',
  );
  const link = await createLink(baseURL, subscriber, {
    title,
    locale,
    voiceNote: { id: voiceNote.id, ...(text ? { text } : {}) },
  });
  return { ...link, voiceNoteId: voiceNote.id };
}
