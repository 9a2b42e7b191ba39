import type { ReactNode } from 'react';
import type { PageHead } from '@kabari/shared/seo/page-head';
import { usePageHead } from '@kabari/shared/seo/use-page-head';
import { PublicPagesNav } from './public-pages-nav';
import './content-page.css';

interface ContentPageProps {
  /** The document's title and description for this page and language. */
  head: PageHead;
  title: string;
  lead?: string;
  /** "Last updated: …" of a policy. */
  updated?: string;
  children: ReactNode;
}

/** A public text page: plain HTML and CSS (no antd), so it paints from the prerendered HTML and stays light. */
export function ContentPage({ head, title, lead, updated, children }: ContentPageProps) {
  usePageHead(head);
  return (
    <article className="content-page" data-remote="search" aria-labelledby="page-title">
      <header className="content-page__header">
        <h1 id="page-title">{title}</h1>
        {lead && <p className="content-page__lead">{lead}</p>}
        {updated && <p className="content-page__updated">{updated}</p>}
      </header>
      {children}
      <PublicPagesNav />
    </article>
  );
}
