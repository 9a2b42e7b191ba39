import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import { fakeApi } from '../../../../jest/fake-api';
import type { LinkInfo } from '../../lib/share-api';
import EnterLinkPage from './enter-link-page';

const openLink: LinkInfo = {
  requesterName: 'Budi Santoso',
  channel: 'sms',
  state: 'open',
  expiresAt: '2030-01-01T10:00:00.000Z',
  liveUntil: null,
  canOptOut: true,
  shared: { approximate: false, precise: false },
  voiceNote: null,
  voiceReply: null,
};

const attribution = { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com/', license: 'CC BY 4.0' };

/** The link as GET /api/v1/share/links/{token} answers it. */
function answerLink(link: LinkInfo = openLink) {
  fakeApi.on('get', '/api/v1/share/links/{token}', link);
}

function geolocation(getCurrentPosition: Geolocation['getCurrentPosition']) {
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: { getCurrentPosition, watchPosition: jest.fn(), clearWatch: jest.fn() },
  });
}

describe('EnterLinkPage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('says the link is invalid when it carries no token, without calling the server', async () => {
    renderRecipientPage('/enter-link', EnterLinkPage);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Location request');
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid link!');
    expect(fakeApi.called()).toEqual([]);
  });

  it('says so in Indonesian when the server does not know the token', async () => {
    fakeApi.on('get', '/api/v1/share/links/{token}', fakeApi.fail(404, 'Invalid link!'));
    renderRecipientPage('/id/enter-link?token=abc', EnterLinkPage);
    expect(await screen.findByRole('heading', { name: 'Tautan tidak valid!' })).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/share/links/{token}').map((call) => call.url)).toEqual([
      '/api/v1/share/links/abc',
    ]);
  });

  // That no audio is fetched before Play is the browser's part (preload none, checked here; seen in the end-to-end
  // voice-note test): jsdom loads no media.
  it("offers the requester's voice note with its text before the recipient decides, its audio not preloaded", async () => {
    const voiceNote = { durationMs: 12_400, text: 'Ini Ibu, Nak.' };
    answerLink({ ...openLink, voiceNote });
    renderRecipientPage('/id/enter-link?token=tok', EnterLinkPage);
    const player = await screen.findByLabelText('Pesan suara dari Budi Santoso, 0:12', { selector: 'audio' });
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('preload', 'none');
    expect(player).toHaveAttribute('src', '/api/v1/share/links/tok/voice-note');
    expect(screen.getByText('Budi Santoso menulis: “Ini Ibu, Nak.”')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bagikan lokasi saya' })).toBeInTheDocument();
    // Only the link itself was asked for.
    expect(fakeApi.called()).toEqual(['GET /api/v1/share/links/{token}']);
  });

  it('names who asks and what would be shared; Share records consent, sends the position and goes on to /share', async () => {
    answerLink();
    fakeApi.on('post', '/api/v1/share/links/{token}/consent', { state: 'sharing', approximate: null, attribution });
    fakeApi.on('post', '/api/v1/share/links/{token}/positions', { accepted: true, liveUntil: null });
    geolocation((success) =>
      success({
        coords: { latitude: -6.2, longitude: 106.8, accuracy: 15 },
        timestamp: Date.now(),
      } as GeolocationPosition),
    );
    const { navigate } = renderRecipientPage('/enter-link?token=tok', EnterLinkPage);
    expect(await screen.findByRole('heading', { name: 'Budi Santoso asks to see your location' })).toBeInTheDocument();
    expect(screen.getByText(/Your approximate place now/)).toBeInTheDocument();
    // Nothing but the opening before the recipient decides.
    expect(fakeApi.called()).toEqual(['GET /api/v1/share/links/{token}']);
    fireEvent.click(screen.getByRole('button', { name: 'Share my location' }));
    // The thank-you page is served whole by the server: a page load, not a client-side route.
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/share?token=tok'));
    const [posted] = fakeApi.calls('post', '/api/v1/share/links/{token}/positions');
    expect(posted?.body).toMatchObject({ latitude: -6.2, longitude: 106.8, accuracy: 15 });
  });

  it('goes to /location-failed with the reason when the browser refuses', async () => {
    answerLink();
    fakeApi.on('post', '/api/v1/share/links/{token}/consent', { state: 'sharing', approximate: null, attribution });
    geolocation((_success, failure) =>
      failure?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError),
    );
    const { navigate } = renderRecipientPage('/id/enter-link?token=tok', EnterLinkPage);
    fireEvent.click(await screen.findByRole('button', { name: 'Bagikan lokasi saya' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/id/location-failed?token=tok&reason=denied'));
  });

  it('Decline says it plainly', async () => {
    answerLink();
    fakeApi.on('post', '/api/v1/share/links/{token}/decline', { state: 'declined' });
    renderRecipientPage('/enter-link?token=tok', EnterLinkPage);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('heading', { name: 'You declined' })).toBeInTheDocument();
  });

  it('shows the opt-out confirmation at once when the message’s opt-out link was followed', async () => {
    answerLink();
    fakeApi.on('post', '/api/v1/share/links/{token}/opt-out', { optedOut: true });
    renderRecipientPage('/enter-link?token=tok&action=opt-out', EnterLinkPage);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, stop all requests' }));
    expect(await screen.findByText(/You will not receive any more location requests/)).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/opt-out').map((call) => call.url)).toEqual([
      '/api/v1/share/links/tok/opt-out',
    ]);
  });

  it.each([
    ['cancelled', 'This request was cancelled'],
    ['stopped', 'You stopped sharing'],
    ['withdrawn', 'You withdrew your consent'],
    ['expired', 'Invalid link!'],
    ['deleted', 'This request was deleted'],
  ] as const)('answers a %s link with its state', async (state, heading) => {
    answerLink({ ...openLink, state });
    renderRecipientPage('/enter-link?token=tok', EnterLinkPage);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share my location' })).not.toBeInTheDocument();
  });

  it('says of a link stopped and erased only that it ended, naming no one', async () => {
    answerLink({ ...openLink, requesterName: '', state: 'withdrawn', liveUntil: null });
    renderRecipientPage('/enter-link?token=tok', EnterLinkPage);
    expect(await screen.findByRole('heading', { name: 'You withdrew your consent' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Everything you shared through this link was erased. The person who asked sees only that you withdrew consent.',
      ),
    ).toBeInTheDocument();
  });

  it('still offers opt-out and report on a link whose request was deleted', async () => {
    answerLink({ ...openLink, requesterName: '', state: 'deleted' });
    renderRecipientPage('/enter-link?token=tok&action=opt-out', EnterLinkPage);
    expect(await screen.findByRole('button', { name: 'Yes, stop all requests' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Report abuse' })).toBeInTheDocument();
  });
});
