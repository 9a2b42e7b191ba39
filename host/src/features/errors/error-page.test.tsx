import { screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import '../../i18n/host-namespace';
import { ErrorPage } from './error-page';

describe('ErrorPage', () => {
  it('shows Page Not Found for 404 with a way home', async () => {
    await renderAt('/nowhere', <ErrorPage statusCode={404} />);
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link')).toHaveAttribute('href', '/');
  });

  it('names the path when a route validity check failed', async () => {
    await renderAt('/enter-link', <ErrorPage statusCode={404} failedPath="/enter-link" />);
    expect(screen.getByText('Page Not Found: /enter-link')).toBeInTheDocument();
  });

  it('shows Internal Server Error otherwise, in Indonesian under /id', async () => {
    await renderAt('/id/broken', <ErrorPage statusCode={500} />);
    expect(screen.getByRole('heading', { name: 'Kesalahan Server Internal' })).toBeInTheDocument();
    expect(screen.getByRole('link')).toHaveAttribute('href', '/id/');
  });
});
