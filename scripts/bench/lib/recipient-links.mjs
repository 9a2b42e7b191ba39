// The consent page as a relative meets it: real links, made once per bench run through the API
// (the e2e suite's own helpers, e2e/support/subscriber.ts and voice-link.ts), instead of a token the server does
// not know (which shows the page for an invalid link).
import path from 'node:path';
import { loadE2eSupport } from './e2e-support.mjs';

/** The routes measured on a real link, and what each link carries. */
export const linkRoutes = {
  '/enter-link': 'a trackable link',
  '/enter-link+voice-note': 'a trackable link with a 12-second voice note and its text',
};

/** @type {Promise<Record<string, string>> | undefined} */
let made;

/**
 * The address of each of `linkRoutes` (e.g. "/enter-link?token=…"), made on first use.
 * @param {import('./context.mjs').BenchContext} context
 * @returns {Promise<Record<string, string>>}
 */
export function recipientLinkUrls(context) {
  made ??= (async () => {
    const { subscriber, 'voice-link': voiceLink } = await loadE2eSupport(
      context.repoRoot,
      path.join(context.reportsDir, 'lib'),
      ['subscriber', 'voice-link'],
    );
    // One requester per link: an account makes one link every 3 hours.
    const requester = () => subscriber.signUpSubscriber(context.baseUrl, { displayName: 'Ana' });
    const plain = await voiceLink.createLink(context.baseUrl, await requester(), { title: 'Mum' });
    const withNote = await voiceLink.linkWithVoiceNote(context.baseUrl, await requester(), {
      title: 'Mum',
      seconds: 12,
      text: 'It’s Ana. Please share where you are, so I know you got home.',
    });
    return {
      '/enter-link': `/enter-link?token=${plain.token}`,
      '/enter-link+voice-note': `/enter-link?token=${withNote.token}`,
    };
  })();
  return made;
}
