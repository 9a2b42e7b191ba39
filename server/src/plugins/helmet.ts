import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { isRecipientPage } from '../lib/recipient-pages';
import { tileOrigin } from '../live/map-config';

/** Origins the remotes are loaded from when REMOTE_*_URL points elsewhere (a CDN, another instance). */
export function remoteOrigins(config: Config): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(config.remotes)) {
    if (url.startsWith('/')) continue;
    origins.add(new URL(url).origin);
  }
  return [...origins];
}

/** Where Stripe.js and its frames (card field, wallet button) come from. */
const STRIPE_JS = 'https://js.stripe.com';

/**
 * What the configured payment providers load into the page (their documented CSP requirements): Stripe.js and its
 * card and wallet frames, PayPal's JS SDK and its button frames. Nothing when the provider is not configured.
 */
function paymentProviderSources(config: Config): { script: string[]; frame: string[]; connect: string[] } {
  const sources = { script: [] as string[], frame: [] as string[], connect: [] as string[] };
  if (config.billing.stripe) {
    sources.script.push(STRIPE_JS, 'https://*.js.stripe.com');
    sources.frame.push(STRIPE_JS, 'https://*.js.stripe.com', 'https://hooks.stripe.com');
    sources.connect.push('https://api.stripe.com');
  }
  if (config.billing.paypal) {
    sources.script.push('https://*.paypal.com', 'https://*.paypalobjects.com');
    sources.frame.push('https://*.paypal.com');
    sources.connect.push('https://*.paypal.com');
  }
  return sources;
}

export function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const remotes = remoteOrigins(config);
  const tiles = tileOrigin(config.map.tileUrl);
  const payments = paymentProviderSources(config);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...remotes, ...payments.script],
    // antd writes its CSS-in-JS into <style> tags at run time.
    styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
    // Map tiles come from tile servers over https; a TILE_URL on plain http (a local tile server) is named.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...(tiles.startsWith('http:') ? [tiles] : [])],
    fontSrc: ["'self'", 'data:', ...remotes],
    connectSrc: ["'self'", ...remotes, ...payments.connect],
    frameSrc: ["'self'", ...payments.frame],
    workerSrc: ["'self'", 'blob:'],
    // The app is also served over plain http (localhost, tests): never force https sub-requests.
    upgradeInsecureRequests: null,
  };
}

/**
 * Browser features a document may use (Permissions-Policy). Everything is off unless a page below needs it; features
 * no page of ours uses are listed too, so that a script that ever slips in cannot ask for them. Only names Chromium
 * knows: it reports any other as an error in the console (ambient-light-sensor, bluetooth and web-share are not).
 */
const FEATURES = [
  'accelerometer',
  'autoplay',
  'camera',
  'clipboard-read',
  'clipboard-write',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'window-management',
  'xr-spatial-tracking',
] as const;
type Feature = (typeof FEATURES)[number];
type Allowed = Partial<Record<Feature, string>>;

function permissionsHeader(allowed: Allowed): string {
  return FEATURES.map((feature) => `${feature}=${allowed[feature] ?? '()'}`).join(', ');
}

/** Files and anything else that is not one of our pages or the API: every feature off. */
export const PERMISSIONS_NONE = permissionsHeader({});

/**
 * The Permissions-Policy of a page's HTML. The app moves between pages without loading a new document, so a
 * document keeps the policy of the page it was loaded for: the recipient's pages never lead to the payment dialog
 * (or to the dashboard, which copies links), and no other page leads to them.
 */
export function pagePermissionsPolicy(config: Config, pathname: string): string {
  // The microphone is asked for only when Record is pressed, and only by this origin: the thank-you page (reached
  // from the consent page without a new document) and the dashboard's send steps (reached from any app page).
  // The recipient's pages (and their /id twins): the consent screen and what follows it ask for the position, and
  // the thank-you page records a voice reply and keeps the screen on while live sharing (a phone whose screen turns
  // off gives the page no position).
  if (isRecipientPage(pathname)) {
    return permissionsHeader({ geolocation: '(self)', microphone: '(self)', 'screen-wake-lock': '(self)' });
  }
  return permissionsHeader({
    // The dashboard's "copy link" button.
    'clipboard-write': '(self)',
    // Stripe's wallet button (Apple Pay, Google Pay) runs the Payment Request in its own frame, from Stripe's
    // origin: that frame alone may, on the pages from which the payment dialog opens (sign-up from the home page,
    // renewal from the dashboard, both reached from any of these pages without a new document).
    ...(config.billing.stripe ? { payment: `("${STRIPE_JS}")` } : {}),
    microphone: '(self)',
  });
}

/** Answers that are JSON for programs, not pages: the API (less its documentation's page) and the health probes. */
function isApiAnswer(url: string): boolean {
  // Read on the URL as it came, without cutting its query string off first: every request asks.
  if (url.startsWith('/api/')) return !url.startsWith('/api/docs');
  return isPath(url, '/healthz') || isPath(url, '/readyz');
}

/** Whether the URL's path is `path`, with or without a query string. */
function isPath(url: string, path: string): boolean {
  return url.startsWith(path) && (url.length === path.length || url.charCodeAt(path.length) === 63);
}

/**
 * The headers a helmet middleware sets, recorded once by running it against a response that only notes them. Ours do
 * not depend on the request (no nonce, no per-request directive), so every answer of a kind gets the same ones.
 */
function recordedHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let finished = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers at once');
  return headers;
}

export default fp(
  async (app, options: { config: Config }) => {
    // HSTS only makes sense where the site is really served over https.
    const strictTransportSecurity = options.config.publicUrl.startsWith('https:') ? undefined : false;
    // helmet's headers, worked out once per kind of answer (@fastify/helmet rebuilt its middleware, parsing every
    // directive again, on each request: a tenth of the cost of a small API answer).
    const pageHeaders = {
      ...recordedHeaders(
        helmet({
          contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options.config) },
          strictTransportSecurity,
          // Already helmet's default; stated because share links carry their token in the address.
          referrerPolicy: { policy: 'no-referrer' },
        }),
      ),
      // Pages replace it with their own (pagePermissionsPolicy, set by the web server).
      'permissions-policy': PERMISSIONS_NONE,
    };
    // A JSON answer opened as a page runs nothing, loads nothing and is framed by no one: the headers OWASP's REST
    // guidance names for an API. The headers that only a page needs (opener and agent-cluster policies,
    // Permissions-Policy, the old X-* ones) would add about a kilobyte to every API answer for nothing.
    const apiHeaders = recordedHeaders(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
        },
        crossOriginOpenerPolicy: false,
        originAgentCluster: false,
        xDnsPrefetchControl: false,
        xDownloadOptions: false,
        xPermittedCrossDomainPolicies: false,
        xXssProtection: false,
        xFrameOptions: { action: 'deny' },
        strictTransportSecurity,
        referrerPolicy: { policy: 'no-referrer' },
      }),
    );
    // On Fastify's reply, not on Node's response: one header set there made Node pass every other header of the answer
    // through setHeader again when Fastify wrote them (about a twentieth of a small API answer's CPU).
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiAnswer(request.url) ? apiHeaders : pageHeaders);
      done();
    });
  },
  { name: 'helmet' },
);
