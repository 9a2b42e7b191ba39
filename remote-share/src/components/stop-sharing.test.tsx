import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../../jest/render-with-i18n';
import { outcomeOf, SharingEnded, StopSharing } from './stop-sharing';

function reply(status: number, data: unknown) {
  return { ok: status < 400, status, statusText: '', json: async () => ({ status, message: '', data }) };
}

describe('StopSharing', () => {
  it('stops through the link and says how it ended', async () => {
    const fetchMock = jest.fn(async () => reply(200, { state: 'stopped' }));
    global.fetch = fetchMock as unknown as typeof fetch;
    const onEnded = jest.fn();
    await renderAt('/share?token=tok', <StopSharing token="tok" eraseConfirmText="Erases it all." onEnded={onEnded} />);
    expect(screen.getByRole('region', { name: 'Stop sharing' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('stopped'));
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/share/links/tok/stop', expect.objectContaining({ method: 'POST' }));
  });

  it('asks before erasing, and Keep it goes back without a call', async () => {
    const fetchMock = jest.fn(async () => reply(200, { state: 'withdrawn' }));
    global.fetch = fetchMock as unknown as typeof fetch;
    const onEnded = jest.fn();
    await renderAt(
      '/location-failed?token=tok',
      <StopSharing
        token="tok"
        intro={{ title: 'Rather not share?', text: 'You can stop now.' }}
        eraseConfirmText="Erases it all."
        onEnded={onEnded}
      />,
    );
    expect(screen.getByRole('region', { name: 'Rather not share?' })).toHaveTextContent('You can stop now.');
    fireEvent.click(screen.getByRole('button', { name: 'Stop and erase' }));
    expect(screen.getByRole('group', { name: 'Erase everything you shared?' })).toHaveTextContent('Erases it all.');
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Stop and erase' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop and erase' }));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('withdrawn'));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/share/links/tok/withdraw',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('forgets on this device what was shared, once erased', async () => {
    global.fetch = jest.fn(async () => reply(200, { state: 'withdrawn' })) as unknown as typeof fetch;
    sessionStorage.setItem('kabari-share:tok', JSON.stringify({ approximateAddress: 'Menteng, Jakarta' }));
    sessionStorage.setItem('kabari-share:other', JSON.stringify({ approximateAddress: 'Bandung' }));
    const onEnded = jest.fn();
    await renderAt('/share?token=tok', <StopSharing token="tok" eraseConfirmText="Erases it all." onEnded={onEnded} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop and erase' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop and erase' }));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('withdrawn'));
    expect(sessionStorage.getItem('kabari-share:tok')).toBeNull();
    // Another link's summary is that link's business.
    expect(sessionStorage.getItem('kabari-share:other')).not.toBeNull();
    sessionStorage.clear();
  });

  it('says when the server could not stop, and lets the recipient try again', async () => {
    global.fetch = jest.fn(async () => reply(500, null)) as unknown as typeof fetch;
    const onEnded = jest.fn();
    await renderAt('/share?token=tok', <StopSharing token="tok" eraseConfirmText="" onEnded={onEnded} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stop sharing' })).toBeEnabled());
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('waits while another of the page’s actions is under way', async () => {
    await renderAt('/share?token=tok', <StopSharing token="tok" eraseConfirmText="" disabled onEnded={jest.fn()} />);
    expect(screen.getByRole('button', { name: 'Stop sharing' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop and erase' })).toBeDisabled();
  });
});

describe('SharingEnded', () => {
  it.each([
    ['stopped', 'stopped', /You stopped sharing/],
    ['withdrawn', 'withdrawn', /You withdrew consent/],
    ['expired', 'not-sharing', /You are not sharing through this link/],
  ] as const)('says a link %s ended as %s', async (state, outcome, text) => {
    expect(outcomeOf(state)).toBe(outcome);
    await renderAt('/share?token=tok', <SharingEnded outcome={outcomeOf(state)} />);
    expect(screen.getByRole('status')).toHaveAccessibleName(text);
  });
});
