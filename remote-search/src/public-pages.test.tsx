import { screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { renderAt } from '../../jest/render-with-i18n';
import { publicPages } from './public-pages';

const englishPaths = Object.keys(publicPages);

// Texts read as an i18n key ("contactUs.form.name") when a key is missing in a language.
const KEY_LIKE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/;

function textNodes(root: Node): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent?.trim();
    if (text) texts.push(text);
  }
  return texts;
}

describe.each(englishPaths)('the public page %s', (englishPath) => {
  const Page = publicPages[englishPath] as ComponentType;

  it.each(['en', 'id'] as const)(
    'renders in %s with one main heading, its own title, and no raw keys',
    async (locale) => {
      const path = locale === 'en' ? englishPath : englishPath === '/' ? '/id' : `/id${englishPath}`;
      const { container, unmount } = await renderAt(path, <Page />);
      expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
      expect(document.title).toMatch(/Kabari/);
      expect(document.title).not.toBe('Kabari');
      expect(document.querySelector('link[rel="alternate"][hreflang="id"]')?.getAttribute('href')).toMatch(
        englishPath === '/' ? /\/id\/$/ : new RegExp(`/id${englishPath}$`),
      );
      expect(textNodes(container).filter((text) => KEY_LIKE.test(text))).toEqual([]);
      unmount();
    },
  );

  it('says different things in English and Indonesian', async () => {
    const english = await renderAt(englishPath, <Page />);
    const englishTitle = document.title;
    const englishHeading = screen.getByRole('heading', { level: 1 }).textContent;
    english.unmount();
    await renderAt(englishPath === '/' ? '/id' : `/id${englishPath}`, <Page />);
    expect(document.title).not.toBe(englishTitle);
    // Status pages share their code; their headings differ.
    expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe(englishHeading);
  });
});
