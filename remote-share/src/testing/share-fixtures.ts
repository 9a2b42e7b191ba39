// Test helpers: what the server answers the recipient's pages.
import type { LinkInfo } from '../lib/share-api';
import { fakeApi } from '../../../jest/fake-api';

/** A link its recipient shares through, as GET /api/v1/share/links/{token} answers it. */
export const sharingLink: LinkInfo = {
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

/** The thank-you page's reads: the link (`link`), and who looked at the position (nobody yet). */
export function answerSharing(link: LinkInfo = sharingLink): void {
  fakeApi.on('get', '/api/v1/share/links/{token}', link);
  fakeApi.on('get', '/api/v1/share/links/{token}/views', { lastSeenAt: null, openedAt: [] });
}
