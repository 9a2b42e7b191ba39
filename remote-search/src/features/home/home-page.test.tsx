import { screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import HomePage from './home-page';

describe('HomePage', () => {
  it('explains the consent flow in English', async () => {
    await renderAt('/', <HomePage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('with their consent');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });

  it('is in Indonesian under /id', async () => {
    await renderAt('/id', <HomePage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('dengan persetujuan mereka');
  });
});
