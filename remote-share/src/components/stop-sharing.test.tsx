import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../../jest/render-with-i18n';
import { fakeApi } from '../../../jest/fake-api';
import { outcomeOf, SharingEnded, StopSharing } from './stop-sharing';

describe('StopSharing', () => {
  it('stops through the link and says how it ended', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', { state: 'stopped' });
    const onEnded = jest.fn();
    await renderAt('/share?token=tok', <StopSharing token="tok" eraseConfirmText="Erases it all." onEnded={onEnded} />);
    expect(screen.getByRole('region', { name: 'Stop sharing' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('stopped'));
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/stop').map((call) => call.url)).toEqual([
      '/api/v1/share/links/tok/stop',
    ]);
  });

  it('asks before erasing, and Keep it goes back without a call', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/withdraw', { state: 'withdrawn' });
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
    expect(fakeApi.called()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Stop and erase' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop and erase' }));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('withdrawn'));
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/withdraw').map((call) => call.url)).toEqual([
      '/api/v1/share/links/tok/withdraw',
    ]);
  });

  it('forgets on this device what was shared, once erased', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/withdraw', { state: 'withdrawn' });
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
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', fakeApi.fail(500, 'Internal Server Error'));
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
