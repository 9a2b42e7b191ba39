import type { ReactNode } from 'react';
import type { Locale } from '@kabari/shared/i18n/locale';
import { RecipientLocale } from '../lib/share-text';

interface RecipientPageFrameProps {
  locale: Locale;
  /** Whether the page's script runs yet: until then its forms go to the server. */
  hydrated: boolean;
  /** The id of the page's title, which labels the page. */
  titleId: string;
  title: string;
  /** Said under the title, before anything about the link. */
  lead?: string;
  children: ReactNode;
}

/** What every recipient's page is made of: its language for the texts inside, the page, its title and lead. */
export function RecipientPageFrame({ locale, hydrated, titleId, title, lead, children }: RecipientPageFrameProps) {
  return (
    <RecipientLocale.Provider value={locale}>
      <article
        className="recipient"
        data-remote="share"
        data-hydrated={hydrated || undefined}
        aria-labelledby={titleId}
      >
        {/* Always there, server-rendered: the recipient first learns what this page is. */}
        <header className="recipient__intro">
          <h1 id={titleId}>{title}</h1>
          {lead && <p className="recipient__lead">{lead}</p>}
        </header>
        {children}
      </article>
    </RecipientLocale.Provider>
  );
}
