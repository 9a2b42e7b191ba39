import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteDialogProps } from '@kabari/shared/routing/route-dialog';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { loadRemoteModule } from '../../lib/federation-remotes';
import { LocationProbe } from '../../testing/location-probe';
import { RouteDialog } from './route-dialog';
import { routeDialogs } from '../../lib/route-dialogs';

jest.mock('../../lib/federation-remotes', () => ({ loadRemoteModule: jest.fn(), resetRemote: jest.fn() }));

const loadMock = loadRemoteModule as jest.MockedFunction<typeof loadRemoteModule>;

function FakeDialog({ open, onClose }: RouteDialogProps) {
  return open ? (
    <div role="dialog" aria-label="My subscription">
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  ) : null;
}

async function renderAt(url: string) {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <RouteDialog name="mySubscription" />
        <LocationProbe />
      </MemoryRouter>,
    );
  });
}

describe('RouteDialog', () => {
  const registered = { ...routeDialogs.mySubscription };
  afterEach(() => {
    routeDialogs.mySubscription = { ...registered };
    loadMock.mockReset();
  });

  it('shows nothing while no remote exposes the dialog yet', async () => {
    routeDialogs.mySubscription = { remote: 'billing', exposed: null };
    await renderAt('/dashboard/modules/MySubscription');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(loadMock).not.toHaveBeenCalled();
  });

  it('opens the exposed dialog, and closing it returns to the dashboard in the same language', async () => {
    routeDialogs.mySubscription = { remote: 'billing', exposed: 'my-subscription-dialog' };
    loadMock.mockResolvedValue({ default: FakeDialog });
    await renderAt('/id/dashboard/modules/MySubscription');
    expect(await screen.findByRole('dialog', { name: 'My subscription' })).toBeInTheDocument();
    expect(loadMock).toHaveBeenCalledWith('billing', 'my-subscription-dialog');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/id/dashboard/');
  });
});
