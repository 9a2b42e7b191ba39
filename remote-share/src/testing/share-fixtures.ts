// Test helpers: what the server answers the recipient's pages.

/** A link its recipient shares through, as GET /api/v1/share/links/{token} answers it. */
export const sharingLink = {
  requesterName: 'Budi Santoso',
  channel: 'link',
  state: 'sharing',
  expiresAt: '2030-01-01T10:00:00.000Z',
  liveUntil: null,
  canOptOut: false,
  shared: { approximate: true, precise: true },
  voiceNote: null,
  voiceReply: null,
};

/** A 200 answer in the API's envelope, as fetch resolves it. */
export function okReply(data: unknown) {
  return { ok: true, status: 200, statusText: 'ok', json: async () => ({ status: 200, message: 'ok', data }) };
}
