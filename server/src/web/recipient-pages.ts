import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { z } from 'zod';
import { overviewPageView } from '../routes/my-requests/schemas';
import {
  type recipientFailure,
  type recipientLink,
  recipientPageData,
  type sharedSummary,
} from '../routes/share/schemas';

// What a recipient's page is rendered with, and what its script hydrates with: the share routes' RecipientPageData,
// named in the OpenAPI document, so that the browser types it from there. Checked before it is used: only what the
// schema names reaches the page, as only that reaches the link route's answer.

/** What the recipient's page is told about its link, as remote-share's pages take it (their `link` prop). */
export type RecipientLink = z.input<typeof recipientLink>;
export type RecipientFailure = z.input<typeof recipientFailure>;
export type SharedSummary = z.input<typeof sharedSummary>;
/** The consent overview's step (/my-requests), as the server found it for this browser. */
export type OverviewPageView = z.input<typeof overviewPageView>;

/** What a recipient's page is rendered with besides its address and link. */
export interface RecipientExtras {
  failure?: RecipientFailure;
  shared?: SharedSummary;
  overview?: OverviewPageView;
}

/** The recipient pages' data, and for the consent overview its own view (OverviewPageView, named beside it). */
type RecipientPageData = z.output<typeof recipientPageData> & { overview?: z.output<typeof overviewPageView> };

/** The page's data, checked: only what the API's schemas name, and a refusal when the link is not what they say. */
function pageData(pathname: string, search: string, link: RecipientLink, extras: RecipientExtras): RecipientPageData {
  const data = recipientPageData.parse({ pathname, search, link, failure: extras.failure, shared: extras.shared });
  return extras.overview ? { ...data, overview: overviewPageView.parse(extras.overview) } : data;
}

type RenderPage = (
  pathname: string,
  search: string,
  link: RecipientPageData['link'],
  failure?: RecipientPageData['failure'],
  shared?: RecipientPageData['shared'],
  overview?: RecipientPageData['overview'],
) => string | null;

/**
 * remote-share's render of its pages (`dist/prerender/server-render.cjs`, written by its build), run per request so
 * that a recipient's page arrives complete for its link. Loaded again when a new build of the remote replaces it,
 * so a remote redeployed alone is picked up without a restart, as its prerendered pages are.
 */
export class RecipientRenderer {
  private readonly file: string;
  private loaded: { version: string; render: RenderPage | null } | null = null;

  constructor(remoteDist: string) {
    this.file = path.join(remoteDist, 'prerender', 'server-render.cjs');
  }

  /** The page's HTML for its address and link, or null when the remote's build has no render for it. */
  async render(
    pathname: string,
    search: string,
    link: RecipientLink,
    extras: RecipientExtras = {},
  ): Promise<string | null> {
    let version: string;
    try {
      const stats = await stat(this.file);
      version = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
    } catch {
      return null;
    }
    if (this.loaded?.version !== version) {
      const load = createRequire(this.file);
      delete load.cache[this.file];
      const module = load(this.file) as { renderRecipientPage?: unknown };
      const render =
        typeof module.renderRecipientPage === 'function' ? (module.renderRecipientPage as RenderPage) : null;
      this.loaded = { version, render };
    }
    const data = pageData(pathname, search, link, extras);
    return (
      this.loaded.render?.(data.pathname, data.search, data.link, data.failure, data.shared, data.overview) ?? null
    );
  }
}

/**
 * What the page's script hydrates with (host/src/recipient-bootstrap.tsx): the address and link the server rendered
 * the page for. JSON in a data block, which no browser runs; `<` escaped so that no text in it can end the block.
 */
export function recipientDataBlock(
  pathname: string,
  search: string,
  link: RecipientLink,
  extras: RecipientExtras = {},
): string {
  const json = JSON.stringify(pageData(pathname, search, link, extras))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="recipient-data">${json}</script>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The layout's language switch, prerendered without a query string, made to carry the page's own (the link's token):
 * the same page in the other language, also before (or without) the page's script.
 */
export function withLanguageSwitchQuery(html: string, search: string): string {
  return html.replace(
    /(<a class="language-switch" href=")([^"?]*)\?hl=(en|id)"/,
    (_whole, start: string, target: string, locale: string) => {
      const query = new URLSearchParams(search);
      query.set('hl', locale);
      return `${start}${target}?${escapeAttribute(query.toString())}"`;
    },
  );
}
