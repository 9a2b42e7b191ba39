import { screen } from '@testing-library/react';
import { renderAt } from '../../../jest/render-with-i18n';
import { Prose } from './prose';

describe('Prose', () => {
  it('makes paragraphs, lists and links from plain text, never HTML', async () => {
    const { container } = await renderAt(
      '/id/faqs',
      <Prose
        text={
          'First <b>paragraph</b>, see [the terms](/terms-of-use).\n\n- one\n- two [DB-IP](https://db-ip.com)\n\nLast\nline'
        }
      />,
    );
    expect(container.querySelectorAll('p')).toHaveLength(2);
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText(/First <b>paragraph<\/b>/)).toBeInTheDocument();
    // Internal links follow the page's language; external ones are plain links.
    expect(screen.getByRole('link', { name: 'the terms' })).toHaveAttribute('href', '/id/terms-of-use');
    expect(screen.getByRole('link', { name: 'DB-IP' })).toHaveAttribute('href', 'https://db-ip.com');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['one', 'two DB-IP']);
    expect(container.querySelectorAll('br')).toHaveLength(1);
  });
});
