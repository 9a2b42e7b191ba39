import { fireEvent, screen } from '@testing-library/react';
import { fakeApi } from '../../../../jest/fake-api';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import type { ConsentOverview } from './my-requests-api';
import MyRequestsPage from './my-requests-page';

const overview: ConsentOverview = {
  sessionEndsAt: '2026-12-04T10:15:00.000Z',
  channel: 'sms',
  requests: [
    {
      id: '6b3f2a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      requesterName: 'Rina Wijaya',
      channel: 'sms',
      state: 'sharing',
      askedAt: '2026-12-03T08:00:00.000Z',
      expiresAt: '2026-12-10T08:00:00.000Z',
      liveUntil: '2026-12-04T11:00:00.000Z',
      endedAt: null,
      looks: { count: 3, lastAt: '2026-12-04T09:00:00.000Z' },
      shared: { positions: 4, lastAt: '2026-12-04T09:30:00.000Z' },
      voiceNote: null,
    },
    {
      id: '7c4a3b5f-2d3e-4f6a-9b0c-1d2e3f4a5b6c',
      requesterName: 'Budi Santoso',
      channel: 'email',
      state: 'open',
      askedAt: '2026-12-04T07:00:00.000Z',
      expiresAt: '2026-12-11T07:00:00.000Z',
      liveUntil: null,
      endedAt: null,
      looks: { count: 0, lastAt: null },
      shared: { positions: 0, lastAt: null },
      voiceNote: { durationMs: 4000, text: 'Sudah sampai?' },
    },
  ],
};

/** The overview answers 401 until the code is entered, then the list. */
function sessionAfterCode() {
  let proven = false;
  fakeApi.on('get', '/api/v1/my-requests', () => (proven ? overview : fakeApi.fail(401, 'Your session has ended.')));
  fakeApi.on('post', '/api/v1/my-requests/code', { channel: 'sms' });
  fakeApi.on('post', '/api/v1/my-requests/session', () => {
    proven = true;
    return { sessionEndsAt: overview.sessionEndsAt };
  });
}

describe('MyRequestsPage', () => {
  it('proves the address with the code sent there, then lists who asked, what was shared (never where) and the looks', async () => {
    sessionAfterCode();
    renderRecipientPage('/my-requests', MyRequestsPage);
    fireEvent.change(await screen.findByLabelText('Your phone number or email address'), {
      target: { value: '+62 812 3456 7890' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    fireEvent.change(await screen.findByLabelText('The 6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show my requests' }));

    expect(await screen.findByRole('heading', { name: 'Rina Wijaya asked' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Budi Santoso asked' })).toBeInTheDocument();
    expect(screen.getByText(/You shared 4 position\(s\)/)).toBeInTheDocument();
    expect(screen.getByText(/Rina Wijaya opened the map 3 time\(s\)/)).toBeInTheDocument();
    expect(screen.getByText('Sudah sampai?')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/my-requests/code').map((call) => call.body)).toEqual([
      { address: '+62 812 3456 7890', locale: 'en' },
    ]);
    expect(fakeApi.calls('post', '/api/v1/my-requests/session').map((call) => call.body)).toEqual([
      { address: '+62 812 3456 7890', code: '123456' },
    ]);
    // Quick exit is there on every step.
    expect(screen.getByRole('link', { name: 'Quick exit' })).toHaveAttribute(
      'href',
      'https://www.google.com/search?q=weather',
    );
  });

  it('says a refused code and keeps the address', async () => {
    fakeApi.on('get', '/api/v1/my-requests', fakeApi.fail(401, 'Your session has ended.'));
    fakeApi.on('post', '/api/v1/my-requests/code', { channel: 'email' });
    fakeApi.on('post', '/api/v1/my-requests/session', fakeApi.fail(400, 'The verification code is incorrect.'));
    renderRecipientPage('/my-requests', MyRequestsPage);
    fireEvent.change(await screen.findByLabelText('Your phone number or email address'), {
      target: { value: 'sari@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    fireEvent.change(await screen.findByLabelText('The 6-digit code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show my requests' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The verification code is incorrect.');
    expect(screen.getByText(/sari@example.com/)).toBeInTheDocument();
  });

  it('Stop everything ends every share and says what it did; one request can be declined alone', async () => {
    fakeApi.on('get', '/api/v1/my-requests', overview);
    fakeApi.on('post', '/api/v1/my-requests/stop-everything', { ended: 1, declined: 1 });
    fakeApi.on('post', '/api/v1/my-requests/{id}/decline', { state: 'declined' });
    renderRecipientPage('/my-requests', MyRequestsPage);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/my-requests/{id}/decline').map((call) => call.path)).toEqual([
      { id: '7c4a3b5f-2d3e-4f6a-9b0c-1d2e3f4a5b6c' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Stop everything' }));
    expect(await screen.findByText('Done: 1 share(s) ended and 1 waiting request(s) declined.')).toBeInTheDocument();
  });

  it('speaks Indonesian under /id', async () => {
    fakeApi.on('get', '/api/v1/my-requests', overview);
    renderRecipientPage('/id/my-requests', MyRequestsPage);
    expect(await screen.findByRole('heading', { name: 'Rina Wijaya meminta' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Siapa yang bisa melihat saya' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hentikan semuanya' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Keluar cepat' })).toBeInTheDocument();
  });
});
