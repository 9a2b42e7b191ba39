import { fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { fakeApi } from '../../../../jest/fake-api';
import type { RecipientPageProps } from '../../lib/use-link';
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
    // Quick exit is there on every step: without the script, a link to the server, which ends the session.
    expect(screen.getByRole('link', { name: 'Quick exit' })).toHaveAttribute('href', '/my-requests/exit');
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

  describe('as the server renders it for a browser without the script', () => {
    type View = NonNullable<RecipientPageProps['overview']>;
    /** The server's HTML for a step (as server/src/web/recipient-pages.ts has it rendered), put in a document. */
    const serverHtml = (pathname: string, overview: View, search = '') => {
      const container = document.createElement('div');
      container.innerHTML = renderToString(
        <MyRequestsPage location={{ pathname, search }} link={{ kind: 'invalid' }} overview={overview} />,
      );
      document.body.append(container);
      return within(container);
    };
    /** What a form sends when the given button submits it, as a browser without script builds it. */
    const sent = (button: HTMLElement) => {
      const form = button.closest('form')!;
      const fields = [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]')];
      return {
        method: form.getAttribute('method'),
        action: form.getAttribute('action'),
        fields: Object.fromEntries([
          ...fields.map((field) => [field.name, field.value]),
          [button.getAttribute('name'), button.getAttribute('value')],
        ]),
      };
    };

    afterEach(() => {
      document.body.innerHTML = '';
    });

    it('posts the address, then the code with the address it went to, to the page itself', () => {
      const address = serverHtml('/my-requests', {
        step: 'address',
        address: 'sari@',
        error: 'Enter a valid address.',
      });
      expect(address.getByRole('alert')).toHaveTextContent('Enter a valid address.');
      const send = address.getByRole('button', { name: 'Send me a code' });
      expect(send).toBeEnabled();
      expect(sent(send)).toEqual({
        method: 'post',
        action: '/my-requests',
        fields: { address: 'sari@', action: 'send-code' },
      });
      expect(address.getByRole('link', { name: 'Quick exit' })).toHaveAttribute('href', '/my-requests/exit');

      const code = serverHtml('/id/my-requests', { step: 'code', address: 'sari@example.com' });
      (code.getByLabelText('Kode 6 angka') as HTMLInputElement).value = '123456';
      expect(sent(code.getByRole('button', { name: 'Tampilkan permintaan saya' }))).toEqual({
        method: 'post',
        action: '/id/my-requests',
        fields: { address: 'sari@example.com', code: '123456', action: 'enter-code' },
      });
      expect(code.getByRole('link', { name: 'Pakai nomor atau alamat lain' })).toHaveAttribute(
        'href',
        '/id/my-requests',
      );
      expect(code.getByRole('link', { name: 'Keluar cepat' })).toHaveAttribute('href', '/id/my-requests/exit');
    });

    it('lists the requests with every action as a form, times in UTC, and says what the last form did', () => {
      const list = serverHtml('/my-requests', { step: 'list', overview }, '?done=stop-everything&ended=1&declined=1');
      expect(list.getByRole('heading', { name: 'Rina Wijaya asked' })).toBeInTheDocument();
      expect(list.getByText(/closes by itself at 4 Dec 2026, 10:15 UTC/)).toBeInTheDocument();
      expect(list.getByRole('status')).toHaveTextContent('Done: 1 share(s) ended and 1 waiting request(s) declined.');
      const rina = within(list.getByRole('listitem', { name: 'Rina Wijaya asked' }));
      expect(sent(rina.getByRole('button', { name: 'Stop sharing' })).fields).toEqual({
        request: overview.requests[0]!.id,
        action: 'stop',
      });
      expect(sent(rina.getByRole('button', { name: 'Stop and erase' })).fields).toEqual({
        request: overview.requests[0]!.id,
        action: 'withdraw',
      });
      expect(sent(rina.getByRole('button', { name: 'Report abuse' })).fields).toEqual({
        request: overview.requests[0]!.id,
        reason: 'unknown_requester',
        action: 'report',
      });
      const budi = within(list.getByRole('listitem', { name: 'Budi Santoso asked' }));
      expect(sent(budi.getByRole('button', { name: 'Decline' }))).toEqual({
        method: 'post',
        action: '/my-requests',
        fields: { request: overview.requests[1]!.id, action: 'decline' },
      });
      for (const [name, action] of [
        ['Stop everything', 'stop-everything'],
        ['Erase everything', 'erase-everything'],
        ['No more requests', 'opt-out'],
      ] as const) {
        const button = list.getByRole('button', { name });
        expect(button).toBeEnabled();
        expect(sent(button)).toEqual({ method: 'post', action: '/my-requests', fields: { action } });
      }
    });

    it('with the script, starts from the step the server rendered without asking again', async () => {
      fakeApi.on('post', '/api/v1/my-requests/{id}/decline', { state: 'declined' });
      fakeApi.on('get', '/api/v1/my-requests', overview);
      render(
        <MyRequestsPage
          location={{ pathname: '/my-requests', search: '?done=opt-out' }}
          link={{ kind: 'invalid' }}
          overview={{ step: 'list', overview }}
        />,
      );
      expect(screen.getByRole('heading', { name: 'Budi Santoso asked' })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Done: this address gets no more requests');
      expect(fakeApi.calls('get', '/api/v1/my-requests')).toEqual([]);
      // Its buttons act through the API and the page stays.
      fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
      expect(await screen.findByText('Done.')).toBeInTheDocument();
      expect(fakeApi.calls('post', '/api/v1/my-requests/{id}/decline')).toHaveLength(1);
    });
  });
});
