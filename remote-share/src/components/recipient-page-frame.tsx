import type { ReactNode } from 'react';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { RecipientLocale, shareText } from '../lib/share-text';

interface RecipientPageFrameProps {
  locale: Locale;
  /** Whether the page's script runs yet: until then its forms go to the server. */
  hydrated: boolean;
  /** The id of the page's title, which labels the page. */
  titleId: string;
  title: string;
  /** Said under the title, before anything about the link. */
  lead?: string;
  /** Whether to end with the link to the consent overview (every page but the overview itself). */
  overviewLink?: boolean;
  children: ReactNode;
}

/** What every recipient's page is made of: its language for the texts inside, the page, its title and lead. */
export function RecipientPageFrame({
  locale,
  hydrated,
  titleId,
  title,
  lead,
  overviewLink = true,
  children,
}: RecipientPageFrameProps) {
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
        {/* Every request to the recipient's number or email in one place, even once this link's message is gone. */}
        {overviewLink && (
          <p className="recipient__small">
            <a href={localizePath(routePaths.myRequests, locale)}>{shareText(locale)('myRequests.linkFromPages')}</a>
          </p>
        )}
      </article>
    </RecipientLocale.Provider>
  );
}
