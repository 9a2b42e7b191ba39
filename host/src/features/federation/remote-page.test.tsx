import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../../jest/render-with-i18n';
import { RemotePage } from './remote-page';
import { loadRemoteModule, resetRemote } from '../../lib/federation-remotes';

jest.mock('../../lib/federation-remotes', () => ({
  loadRemoteModule: jest.fn(),
  resetRemote: jest.fn(),
}));

const loadMock = loadRemoteModule as jest.MockedFunction<typeof loadRemoteModule>;

describe('RemotePage', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    loadMock.mockReset();
  });

  it('renders the page a remote exposes', async () => {
    loadMock.mockResolvedValue({ default: () => <h1>From the remote</h1> });
    await renderAt('/', <RemotePage remote="search" exposed="home-page" />);
    expect(await screen.findByRole('heading', { name: 'From the remote' })).toBeInTheDocument();
    expect(loadMock).toHaveBeenCalledWith('search', 'home-page');
  });

  it('shows a translated fallback when the remote fails, and retries on demand', async () => {
    loadMock.mockRejectedValueOnce(new Error('remoteEntry.js 502'));
    loadMock.mockResolvedValueOnce({ default: () => <h1>Back again</h1> });
    await renderAt('/id/dashboard', <RemotePage remote="dashboard" exposed="dashboard-page" />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Bagian Kabari ini gagal dimuat');
    await userEvent.click(screen.getByRole('button', { name: 'Coba lagi' }));

    expect(resetRemote).toHaveBeenCalledWith('dashboard');
    expect(await screen.findByRole('heading', { name: 'Back again' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
