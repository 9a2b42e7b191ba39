import { screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import EnterLinkPage from './enter-link-page';

describe('EnterLinkPage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('says the link is invalid when it carries no token, without calling the server', async () => {
    global.fetch = jest.fn();
    await renderAt('/enter-link', <EnterLinkPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Location request');
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid link!');
    expect(global.fetch).not.toHaveBeenCalled();
  });

  it('checks a token with the server and says so when the server does not know it', async () => {
    global.fetch = jest.fn().mockResolvedValue({ ok: false, status: 404 });
    await renderAt('/id/enter-link?token=abc', <EnterLinkPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Memeriksa tautan Anda');
    expect(await screen.findByRole('heading', { name: 'Tautan tidak valid!' })).toBeInTheDocument();
    expect(global.fetch).toHaveBeenCalledWith('/api/v1/share/links/abc', expect.anything());
  });
});
