import { screen, within } from '@testing-library/react';
import { renderAt } from '../../../jest/render-with-i18n';
import HomePage from './home-page';

describe('HomePage', () => {
  it('explains the consent flow in English', async () => {
    await renderAt('/', <HomePage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('with their consent');
    const steps = screen.getByRole('region', { name: 'How it works' });
    expect(within(steps).getAllByRole('heading', { level: 3 })).toHaveLength(3);
    expect(document.title).toBe('Kabari: ask a relative where they are, with their consent');
  });

  it('answers the first questions, and links to all of them and to every public page', async () => {
    await renderAt('/', <HomePage />);
    const faq = screen.getByRole('region', { name: 'Questions people ask' });
    expect(within(faq).getByText("Can I see someone's location without them knowing?")).toBeInTheDocument();
    expect(faq.querySelectorAll('details')).toHaveLength(5);
    expect(within(faq).getByRole('link', { name: 'All questions and answers' })).toHaveAttribute('href', '/faqs');
    const nav = screen.getByRole('navigation', { name: 'More about Kabari' });
    expect(within(nav).getAllByRole('link')).toHaveLength(9);
  });

  it('is in Indonesian under /id, with Indonesian links', async () => {
    await renderAt('/id', <HomePage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('dengan persetujuan mereka');
    expect(screen.getByRole('link', { name: 'Lihat semua tanya jawab' })).toHaveAttribute('href', '/id/faqs');
    expect(screen.getByRole('link', { name: 'cara kerja permintaan lokasi' })).toHaveAttribute(
      'href',
      '/id/tracking-phone-number',
    );
  });
});
