import { render } from '@testing-library/react';
import { MemoryRouter } from '../routing/router';
import { initI18n } from '../i18n/create-i18n';
import { usePageHead } from './use-page-head';
import type { PageHead } from './page-head';

function Page(head: PageHead) {
  usePageHead(head);
  return null;
}

const hrefs = (selector: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>(selector)].map((link) => `${link.hreflang}:${link.href}`);

describe('usePageHead', () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('sets the title, description and language links of the page, and resets them when it goes', () => {
    const { rerender, unmount } = render(
      <MemoryRouter initialEntries={['/id/faqs/']}>
        <Page title="Pertanyaan umum — Kabari" description="Jawaban singkat." />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Pertanyaan umum — Kabari');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', 'Jawaban singkat.');
    expect(hrefs('link[rel="canonical"]')).toEqual([':http://localhost/id/faqs']);
    expect(hrefs('link[rel="alternate"]')).toEqual([
      'en:http://localhost/faqs',
      'id:http://localhost/id/faqs',
      'x-default:http://localhost/faqs',
    ]);

    rerender(
      <MemoryRouter initialEntries={['/id/faqs/']}>
        <Page title="Halaman tidak ditemukan" description="x" indexable={false} />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Halaman tidak ditemukan');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);

    unmount();
    expect(document.title).toBe('Kabari');
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
    expect(document.head.querySelectorAll('link[rel="alternate"]')).toHaveLength(0);
  });
});
