import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { WEB_REMOTES } from '../lib/web-apps';
import { failure } from '../lib/envelope';
import { isFresh, strongEtag } from '../lib/etag';
import { messagesOf, requestLocale } from '../lib/messages';
import { tokenOf } from '../plugins/auth';
import { overviewDeps, overviewSessionOf } from '../plugins/overview-session';
import { pagePermissionsPolicy } from '../plugins/helmet';
import { cacheControlFor, REVALIDATE } from '../lib/cache-policy';
import { PrerenderStitcher } from './prerender-stitcher';
import { HttpError } from '../lib/envelope';
import { isRecipientPage, recipientPageOf } from '../lib/recipient-pages';
import { englishPathOf } from '../lib/locale-paths';
import { approximatePlaceShared, openLink } from '../sharing/link-consent';
import { shareThrottle } from '../sharing/share-throttle';
import { tokenParams } from '../routes/share/schemas';
import {
  RecipientRenderer,
  recipientDataBlock,
  withLanguageSwitchQuery,
  type RecipientFailure,
  type OverviewPageView,
  type RecipientLink,
  type SharedSummary,
} from './recipient-pages';
import { sharedHere } from './shared-here';
import { recipientForms } from './recipient-forms';
import { currentOverviewView, overviewForms } from './overview-forms';
import { publicFilePath } from './public-files';
import { robotsTxt, sitemapXml } from './seo-files';
import { hasVisitorCountryList, withVisitorCountry } from './visitor-country';

export function hostDistOf(webRoot: string): string {
  return path.join(webRoot, 'host', 'dist');
}

export function remoteDistOf(webRoot: string, name: string): string {
  const remote = WEB_REMOTES.find((candidate) => candidate.name === name);
  if (!remote) throw new Error(`${name} is not a remote apps.js lists`);
  return path.join(webRoot, remote.folder, 'dist');
}

function setCacheHeaders(reply: FastifyReply, filePath: string): void {
  reply.header('cache-control', cacheControlFor(filePath));
  // The same URL is answered as .br, .gz or plain depending on Accept-Encoding.
  reply.header('vary', 'Accept-Encoding');
}

/** A host on another origin loads remotes from here: the manifest by fetch (CORS), chunks by <script>. */
function setRemoteHeaders(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('cross-origin-resource-policy', 'cross-origin');
}

/** The request's path as sent, without its query. */
function pathOf(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? '/';
}

// The last segment has an extension: a request for a file, never for a page.
function looksLikeFile(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]+$/.test(last);
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

const say = messagesOf('webPages');

/** The language a page's path names: /id and below are Indonesian. */
function pageLocale(pathname: string): 'en' | 'id' {
  return englishPathOf(pathname) === pathname ? 'en' : 'id';
}

// Written by the language switch (shared/src/i18n/locale.ts); read here for the bare address only.
const LOCALE_COOKIE = 'locale';
const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** The language switch's query parameter (host site-layout.tsx): a language chosen, to remember. */
const CHOSEN_LANGUAGE_PARAM = 'hl';

/**
 * The recipient's pages post plain forms to themselves. Under the site's `no-referrer` a browser names the origin of
 * such a post `null`, which the cross-site check rightly refuses; `same-origin` has it name ours, and still sends
 * no address (the link's token) to any other site.
 */
const RECIPIENT_REFERRER_POLICY = 'same-origin';

/**
 * The headers of a recipient's page rendered for its link: its own permissions (the position), never cached, the
 * referrer policy above, and no Cross-Origin-Opener-Policy. That policy has the browser open the page in a new
 * browsing-context group, which costs a phone a second start of the page's process before it can respond: on
 * /enter-link, Lighthouse's blocking time went from 300–560 ms with it to 60–140 ms without, the rest unchanged. It
 * buys nothing here: these documents never hold the signed-in app (their links home load a new document), another
 * site that opens one already needed its token, which grants all the page does, and framing stays refused
 * (frame-ancestors). Every other page keeps it.
 */
function setRecipientPageHeaders(reply: FastifyReply, config: Config, pathname: string): void {
  reply.header('permissions-policy', pagePermissionsPolicy(config, pathname));
  reply.header('cache-control', 'no-store').header('referrer-policy', RECIPIENT_REFERRER_POLICY);
  reply.removeHeader('cross-origin-opener-policy');
}

/** `?hl=en|id` on a page address: the language chosen, and the address without it. */
function chosenLanguage(url: string): { locale: 'en' | 'id'; target: string } | null {
  const parsed = new URL(url, 'http://kabari.invalid');
  const locale = parsed.searchParams.get(CHOSEN_LANGUAGE_PARAM);
  if (locale !== 'en' && locale !== 'id') return null;
  parsed.searchParams.delete(CHOSEN_LANGUAGE_PARAM);
  // One leading slash: '//host' would send the browser to another site.
  return { locale, target: `${parsed.pathname.replace(/^\/+/, '/')}${parsed.search}` };
}

/** The operator's console and every page below it, in either language. */
function isConsolePage(pathname: string): boolean {
  const english = englishPathOf(pathname);
  return english === '/operator' || english.startsWith('/operator/');
}

function sendText(request: FastifyRequest, reply: FastifyReply, type: string, text: string, etag = strongEtag(text)) {
  reply.header('cache-control', REVALIDATE).header('etag', etag);
  if (!reply.hasHeader('vary')) reply.header('vary', 'Accept-Encoding');
  if (isFresh(request, etag)) return reply.code(304).send();
  return reply.type(type).send(text);
}

/**
 * Production only: the built host at `/`, each remote at `/remotes/<name>/`, and page HTML for every other
 * GET (prerendered when a remote's build provides the page, else the host's index.html; the client router
 * shows its own 404 page).
 */
export default async function serveWeb(app: FastifyInstance, options: { config: Config }): Promise<void> {
  const { webRoot, publicUrl } = options.config;
  const hostDist = hostDistOf(webRoot);
  const remoteDists = Object.fromEntries(
    WEB_REMOTES.map((remote) => [remote.name, remoteDistOf(webRoot, remote.name)]),
  );
  const stitcher = new PrerenderStitcher({
    hostDist,
    remoteDists,
    publicUrl,
    onFallback: (reason, error) => app.log.warn({ err: error }, `${reason}; serving index.html instead`),
  });

  const recipientRenderer = new RecipientRenderer(remoteDistOf(webRoot, 'share'));
  const throttle = shareThrottle(app.db, app.auth.secrets.hmacSecret, options.config.authThrottleScale);
  const overview = overviewDeps(app, options.config);

  /**
   * A recipient's page rendered for its link, so that it arrives complete: who asks, the link's state, forms that
   * work before (or without) the page's script. Opening it records what the page's own call records (that the link
   * was opened), under the same throttle. An address without a token says so at once, as the page's script would.
   * Null: serve the prerendered page (too many requests, no render in the remote's build).
   */
  async function recipientPage(
    request: FastifyRequest,
    pathname: string,
    failure?: RecipientFailure,
    overviewView?: OverviewPageView,
  ): Promise<string | null> {
    const url = new URL(request.url, 'http://kabari.invalid');
    const given = url.searchParams.get('token') ?? url.searchParams.get('t');
    let link: RecipientLink;
    let shared: SharedSummary | undefined;
    let overviewStep: OverviewPageView | undefined;
    const token = tokenParams.safeParse({ token: given });
    if (recipientPageOf(pathname) === '/my-requests') {
      // The consent overview has no link: what it shows is this browser's session, the list while it lasts.
      link = { kind: 'invalid' };
      overviewStep =
        overviewView ??
        (await currentOverviewView(overview, overviewSessionOf(request), pageLocale(pathname), request.log));
    } else if (given === null || !token.success) {
      link = { kind: 'invalid' };
    } else {
      try {
        await throttle.link(request.ip, token.data.token);
        link = { kind: 'ready', link: await openLink(app.db, token.data.token) };
        // The thank-you page after the plain form's Share names the approximate place, to that browser only.
        if (
          recipientPageOf(pathname) === '/share' &&
          sharedHere(request, app.auth.secrets.hmacSecret, token.data.token)
        ) {
          const place = await approximatePlaceShared(app.db, token.data.token);
          shared = {
            approximateAddress: place?.address ?? null,
            approximatePlace: place?.place ?? null,
            approximateKnown: place !== null,
            preciseAccuracy: null,
          };
        }
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 404) link = { kind: 'invalid' };
        else if (error instanceof HttpError && error.statusCode === 429) return null;
        else throw error;
      }
    }
    const extras = { failure, shared, overview: overviewStep };
    const html = await recipientRenderer.render(pathname, url.search, link, extras);
    if (html === null) return null;
    const data = recipientDataBlock(pathname, url.search, link, extras);
    const page = await stitcher.renderWith(request.url, html, data);
    // The overview's query says only what was just done: the other language's page need not say it again.
    return page && withLanguageSwitchQuery(page.html, overviewStep ? '' : url.search);
  }

  /** A recipient's page answered as for a GET of it (its link as it is now), for a form the server refused. */
  async function sendRecipientPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    refused: RecipientFailure,
  ): Promise<FastifyReply> {
    const pathname = pathOf(request.url);
    const page = await recipientPage(request, pathname, refused);
    setRecipientPageHeaders(reply, options.config, pathname);
    if (page === null) return reply.code(status).send(failure(status, refused.message));
    return reply.code(status).type('text/html; charset=utf-8').send(page);
  }
  await app.register(recipientForms, { sendRecipientPage, publicUrl, throttle });

  /** The consent overview's page for a view its plain forms led to (the code step, or a refusal). */
  async function sendOverviewPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: OverviewPageView,
  ): Promise<FastifyReply> {
    const pathname = pathOf(request.url);
    const page = await recipientPage(request, pathname, undefined, view);
    setRecipientPageHeaders(reply, options.config, pathname);
    if (page === null) {
      // No render in the remote's build: the form's outcome in words, as for the consent page's forms.
      return reply.code(status).send(failure(status, view.error ?? say('notBuilt')[pageLocale(pathname)]));
    }
    return reply.code(status).type('text/html; charset=utf-8').send(page);
  }
  await app.register(overviewForms, { deps: overview, sendOverviewPage, publicUrl });

  // One file server for the host and every remote: each request names its build folder, and only after
  // publicFilePath (public-files.ts) has accepted the path as spelled.
  await app.register(fastifyStatic, {
    root: hostDist,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    list: false,
    setHeaders: setCacheHeaders,
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/remotes/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const [, name = '', inside = ''] = /^\/remotes\/([^/]+)(\/.*)$/.exec(pathOf(request.url)) ?? [];
      const root = Object.hasOwn(remoteDists, name) ? remoteDists[name] : undefined;
      const file = root === undefined ? null : publicFilePath(inside);
      if (root === undefined || file === null) return reply.callNotFound();
      setRemoteHeaders(reply);
      return reply.sendFile(file, root);
    },
  });

  // Apple's check of the site for Apple Pay (Stripe's wallet): the operator's file, when given. Every other path in a
  // dot folder stays refused by the file gate below.
  const { applePayDomainFile } = options.config.billing;
  if (applePayDomainFile !== undefined) {
    app.get(
      '/.well-known/apple-developer-merchantid-domain-association',
      { schema: { hide: true } },
      (request, reply) => sendText(request, reply, 'text/plain; charset=utf-8', applePayDomainFile),
    );
  }

  // Generated, not files: they need the public address and the pages the remotes prerender now (seo-files.ts).
  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) =>
    sendText(request, reply, 'text/plain; charset=utf-8', robotsTxt(publicUrl)),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) =>
    sendText(request, reply, 'application/xml; charset=utf-8', sitemapXml(publicUrl, await stitcher.sitemapPaths())),
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const pathname = pathOf(request.url);
      if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/remotes/')) {
        return reply.callNotFound();
      }
      if (looksLikeFile(pathname)) {
        const file = publicFilePath(pathname);
        if (file === null) return reply.callNotFound();
        return reply.sendFile(file);
      }
      if (!acceptsHtml(request)) return reply.callNotFound();
      const chosen = chosenLanguage(request.url);
      if (chosen) {
        // The language switch clicked before the page's script ran (a plain link): the choice is remembered as
        // the script would have (the locale cookie), then the page is served at its own address.
        reply.setCookie(LOCALE_COOKIE, chosen.locale, {
          path: '/',
          maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
          sameSite: 'lax',
        });
        return reply.header('cache-control', 'no-store').redirect(chosen.target, 302);
      }
      // The bare address stands for the language last chosen (see below), for a signed-in user too.
      const bareToIndonesian = pathname === '/' && request.cookies[LOCALE_COOKIE] === 'id';
      const page = bareToIndonesian ? '/id/' : pathname;
      const signedInTarget = await stitcher.signedInRedirect(page);
      if (signedInTarget) {
        // A visitor-only page: the answer depends on the session cookie.
        reply.header('vary', 'Accept-Encoding, Cookie');
        // The client's guard (route-guard.ts) would move a signed-in user on once hydrated; here it happens
        // before the public page is ever shown.
        // A token present means signed in, as the client's guard decides. Not checked against the database: a
        // stale one goes to the dashboard, whose first API call ends it.
        if (tokenOf(request)) {
          return reply.header('cache-control', 'no-store').redirect(signedInTarget, 302);
        }
      }
      if (pathname === '/') {
        // The bare address follows the language the visitor last chose with the switch (the locale cookie);
        // every other path, /id or not, is itself a choice and is served as asked.
        reply.header('vary', 'Accept-Encoding, Cookie');
        if (bareToIndonesian) {
          const query = request.url.slice(pathname.length);
          return reply.header('cache-control', 'no-store').redirect(`/id/${query}`, 302);
        }
      }
      if (isRecipientPage(pathname)) {
        const page = await recipientPage(request, pathname);
        if (page !== null) {
          // Rendered for one link: never kept by a cache, nor shown again from one.
          setRecipientPageHeaders(reply, options.config, pathname);
          reply.header('vary', 'Accept-Encoding');
          return reply.type('text/html; charset=utf-8').send(page);
        }
      }
      const stitched = await stitcher.render(request.url);
      if (!stitched) {
        request.log.error(`The web app is not built: ${path.join(hostDist, 'index.html')} is missing`);
        return reply.code(503).send(failure(503, say('notBuilt')[requestLocale(request)]));
      }
      reply.header('permissions-policy', pagePermissionsPolicy(options.config, pathname));
      // The operator's console is no page for search engines, wherever a link to it turns up.
      if (isConsolePage(pathname)) reply.header('x-robots-tag', 'noindex, nofollow');
      // The home page's search starts from the visitor's country, before its app runs as after.
      const answered = hasVisitorCountryList(stitched.html)
        ? withVisitorCountry(stitched, app.geo.lookupIp(request.ip)?.countryCode)
        : stitched;
      return sendText(request, reply, 'text/html; charset=utf-8', answered.html, answered.etag);
    },
  });
}
