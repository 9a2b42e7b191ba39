import { apiPost } from '@kabari/shared/api/api-client';

/** Sends a recording or an audio file: the server reads and keeps it as a draft until a request carries it. */
export async function uploadVoiceNote(audio: Blob) {
  const { voiceNote } = await apiPost('/api/v1/voice-notes', audio, {
    headers: { 'content-type': audio.type || 'application/octet-stream' },
    toastErrors: false,
  });
  return voiceNote;
}

export async function removeVoiceNote(id: string): Promise<void> {
  await apiPost('/api/v1/voice-notes/{id}/remove', undefined, { path: { id }, toastErrors: false });
}

/** Where a note or a reply of the account's own plays from. */
export const voiceNoteAudioUrl = (id: string) => `/api/v1/voice-notes/${encodeURIComponent(id)}/audio`;
