import { screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import RegisterResultPage from './register-result-page';

describe('RegisterResultPage', () => {
  it('says plainly that there is no sign-up to show, with a way home in the same language', async () => {
    await renderAt('/id/register', <RegisterResultPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Pendaftaran Anda');
    expect(screen.getByRole('link')).toHaveAttribute('href', '/id/');
  });
});
