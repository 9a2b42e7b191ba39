import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Place } from '../db/column-values';
import type { LinkView } from '../routes/share/service';

/** What the recipient's page is told about its link, as remote-share's pages take it (their `link` prop). */
export type RecipientLink = { kind: 'invalid' } | { kind: 'error' } | { kind: 'ready'; link: LinkView };

/** A form sent without the page's script that was refused: which, and the server's words (remote-share's `failure`). */
export interface RecipientFailure {
  action: 'share' | 'decline' | 'opt-out' | 'report';
  message: string;
}

/**
 * What this browser shared through the plain form, for the thank-you page to name (remote-share's `shared`, its
 * ShareSummary): the approximate place, or that none was found.
 */
export interface SharedSummary {
  approximateAddress: string | null;
  approximatePlace: Place | null;
  approximateKnown: boolean;
  preciseAccuracy: null;
}

/** What a recipient's page is rendered with besides its address and link. */
export interface RecipientExtras {
  failure?: RecipientFailure;
  shared?: SharedSummary;
}

type RenderPage = (
  pathname: string,
  search: string,
  link: RecipientLink,
  failure?: RecipientFailure,
  shared?: SharedSummary,
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
    { failure, shared }: RecipientExtras = {},
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
    return this.loaded.render?.(pathname, search, link, failure, shared) ?? null;
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
  { failure, shared }: RecipientExtras = {},
): string {
  const json = JSON.stringify({ pathname, search, link, failure, shared })
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
