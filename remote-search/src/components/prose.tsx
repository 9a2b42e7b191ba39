import { Fragment, type ReactNode } from 'react';
import { Link, useLocation } from '@kabari/shared/routing/router';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';

// Long texts live in the i18n files as plain text with a tiny markup, so each language can shape its
// own paragraphs and lists: a blank line separates blocks, a block of "- " lines is a list, and
// [label](/path) or [label](https://…) is a link. Internal paths are English; the link follows the
// page's language. Everything else is text, never HTML.
const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string, localize: (path: string) => string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, label = '', href = ''] = match;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    nodes.push(
      href.startsWith('/') ? (
        <Link key={match.index} to={localize(href)}>
          {label}
        </Link>
      ) : (
        <a key={match.index} href={href} rel="noopener">
          {label}
        </a>
      ),
    );
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** Paragraphs, lists and links from an i18n text (see the markup above). */
export function Prose({ text }: { text: string }) {
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const localize = (path: string) => localizePath(path, locale);
  const blocks = text.split(/\n\s*\n/).map((block) => block.trim());
  return (
    <>
      {blocks.map((block, index) => {
        const lines = block.split('\n');
        if (lines.every((line) => line.startsWith('- '))) {
          return (
            <ul key={index}>
              {lines.map((line, item) => (
                <li key={item}>{inline(line.slice(2), localize)}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index}>
            {lines.map((line, number) => (
              <Fragment key={number}>
                {number > 0 && <br />}
                {inline(line, localize)}
              </Fragment>
            ))}
          </p>
        );
      })}
    </>
  );
}
