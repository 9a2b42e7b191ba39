import { createPrivateKey, randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_TILE_ATTRIBUTION,
  DEFAULT_TILE_URL,
  tileAttributionSchema,
  tileUrlSchema,
  type MapConfig,
} from './live/map-config';
import { requestsConfig, requestsEnvironment, type RequestsConfig } from './requests/requests-config';
import { billingConfig, billingEnvironment, type BillingConfig } from './billing/billing-config';
import { vapidPublicKeyOf } from './lib/vapid-key';
import { twilioStatusCallback } from './messages/twilio-status';
import { webAddress } from './lib/web-address';
import { WEB_REMOTES } from './lib/web-apps';

// Where host/dist and remote-*/dist live: the repository root, both from src/ and from dist/.
const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const urlText = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    );

const optionalUrl = (protocols: string[]) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    urlText(protocols).optional(),
  );

// A manifest URL may be absolute (another origin, a CDN) or a path on this server.
const remoteManifestUrl = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string()
    .trim()
    .refine((value) => {
      if (value.startsWith('/')) return !value.startsWith('//');
      return webAddress(value) !== null;
    }, 'expected an http(s) URL or a path starting with /')
    .optional(),
);

// PEM values often arrive through env files with literal "\n" escapes.
const pemText = optionalText.transform((value) => value?.replace(/\\n/g, '\n'));

const environmentSchema = z.object({
  // Prices per locale, the renewal period and job, payment providers (server/README.md).
  ...billingEnvironment,
  // Twilio for SMS, and how long consent links stay open (server/README.md).
  ...requestsEnvironment,
  // Production unless asked: `npm run dev` (scripts/dev.mjs) is what sets development.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ message: 'expected an integer between 0 and 65535' })
    .int('expected an integer between 0 and 65535')
    .min(0, 'expected an integer between 0 and 65535')
    .max(65535, 'expected an integer between 0 and 65535')
    .default(8080),
  // This machine only, unless asked; beyond loopback needs PUBLIC_URL (checked in loadConfig).
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_ROOT: optionalText,
  SERVE_WEB: booleanFromEnv.optional(),
  // Behind a proxy: its addresses (IPs, CIDRs); never "trust everyone", nor a bare number of proxies.
  TRUST_PROXY: optionalText,
  // Set: a deployment at this address. Unset: a local trial on this machine.
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().trim().min(3).default('Kabari <no-reply@kabari.localhost>'),
  // The operator's address: messages from the contact form go there.
  OPERATOR_EMAIL: z
    .string()
    .trim()
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'expected an email address')
    .default('operator@kabari.localhost'),
  APP_ID: z.string().trim().min(1).max(64).default('kabari-web'),
  RSA_PRIVATE_KEY: pemText.refine((pem) => {
    if (pem === undefined) return true;
    try {
      const key = createPrivateKey(pem);
      return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
    } catch {
      return false;
    }
  }, 'expected a PEM-encoded RSA private key of at least 2048 bits'),
  // The local outbox page shows reset codes: on by default in a local trial only, and always behind
  // DEV_TOOLS_TOKEN (random for each start unless set).
  DEV_OUTBOX: booleanFromEnv.optional(),
  // /dev/subscriptions/* (end a subscription now, run renewals at a chosen moment): only when asked by name.
  DEV_BILLING_TOOLS: booleanFromEnv.optional(),
  DEV_TOOLS_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{32,128}$/, 'expected 32 to 128 letters, digits, "-" or "_"')
    .optional(),
  // Multiplies the login and code throttles, e.g. for end-to-end runs that sign in many times from one address.
  AUTH_THROTTLE_SCALE: z.coerce
    .number({ message: 'expected a number from 1 to 1000' })
    .min(1, 'expected a number from 1 to 1000')
    .max(1000, 'expected a number from 1 to 1000')
    .default(1),
  // Reverse geocoding through a Nominatim-compatible service; unset: the nearest named place from bundled data.
  NOMINATIM_URL: optionalUrl(['http:', 'https:']),
  // Positions and live events older than this many days are deleted by the retention job.
  RETENTION_DAYS: z.coerce
    .number({ message: 'expected a whole number of days from 1 to 3650' })
    .int('expected a whole number of days from 1 to 3650')
    .min(1, 'expected a whole number of days from 1 to 3650')
    .max(3650, 'expected a whole number of days from 1 to 3650')
    .default(30),
  // The requester's map: a Leaflet tile URL template and the attribution its provider requires (HTML).
  TILE_URL: tileUrlSchema.default(DEFAULT_TILE_URL),
  TILE_ATTRIBUTION: tileAttributionSchema.default(DEFAULT_TILE_ATTRIBUTION),
  AUTH_SECRET: optionalText.refine(
    (value) => value === undefined || value.length >= 32,
    'expected at least 32 characters',
  ),
  // The push messages' signing key (VAPID): from here it stays out of the database and its backups.
  VAPID_PRIVATE_KEY: optionalText.refine(
    (value) => value === undefined || vapidPublicKeyOf(value) !== undefined,
    'expected a P-256 private key as 43 base64url characters (such as `npx web-push generate-vapid-keys` prints)',
  ),
  // Tests only: push services on this machine (their own, on 127.0.0.1) may be sent to. Refused in a deployment.
  PUSH_ALLOW_LOOPBACK: booleanFromEnv.optional(),
});

// Each remote's REMOTE_<NAME>_URL, one for every remote apps.js lists.
const remoteUrlsSchema = z.object(
  Object.fromEntries(WEB_REMOTES.map((remote) => [remote.variable, remoteManifestUrl])) as Record<
    string,
    typeof remoteManifestUrl
  >,
);

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  /** No PUBLIC_URL: a trial on this machine (loopback only, local outbox and sandbox payments on by default). */
  localTrial: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  webRoot: string;
  serveWeb: boolean;
  /** Each remote's manifest URL, by its name in apps.js. */
  remotes: Record<string, string>;
  /** false, or the proxies' addresses and ranges (fastify's trustProxy). */
  trustProxy: false | string[];
  /** Where links in messages point: PUBLIC_URL, or http://localhost:PORT in a local trial. Never the Host header. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  operatorEmail: string;
  appId: string;
  rsaPrivateKeyPem: string | undefined;
  authSecret: string | undefined;
  /** VAPID_PRIVATE_KEY; unset: a key made on first start and kept in the database. */
  vapidPrivateKey: string | undefined;
  /** Push endpoints on loopback are allowed (tests' own push service); never in a deployment. */
  pushAllowLoopback: boolean;
  /** The /dev/* tools, each behind the token. */
  devTools: DevToolsConfig;
  /** The variables left to their defaults where a deployment must set them (warned about at start). */
  defaultedInDeployment: 'OPERATOR_EMAIL'[];
  authThrottleScale: number;
  requests: RequestsConfig;
  billing: BillingConfig;
  nominatimUrl: string | undefined;
  retentionDays: number;
  map: MapConfig;
}

export interface DevToolsConfig {
  /** /dev/outbox: every message sent, reset codes included. */
  outbox: boolean;
  /** /dev/subscriptions/*. */
  billing: boolean;
  /** Every /dev/* request carries it (`?token=`); without it, the ordinary 404. */
  token: string;
  /** The operator chose the token (DEV_TOOLS_TOKEN): it is then never printed. */
  tokenFromEnvironment: boolean;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function describeValue(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined) return 'it is missing';
  // Secrets are never echoed back.
  if (/KEY|SECRET|PASSWORD|TOKEN|URL/.test(name)) return 'the given value is not shown';
  return `got ${JSON.stringify(value)}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  // An empty variable (PORT=) means "use the default", as if it were not set.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  const remoteUrls = remoteUrlsSchema.safeParse(present);
  if (!parsed.success || !remoteUrls.success) {
    const issues = [...(parsed.error?.issues ?? []), ...(remoteUrls.error?.issues ?? [])];
    const lines = issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `  ${name}: ${issue.message} (${describeValue(env, name)})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const localTrial = e.PUBLIC_URL === undefined;
  const problems = [
    ...listeningProblems(e.HOST, localTrial),
    ...devToolsProblems(e, localTrial),
    ...(e.PUSH_ALLOW_LOOPBACK && !localTrial
      ? [
          '  PUSH_ALLOW_LOOPBACK: lets push messages go to services on this machine, for tests only: it cannot be ' +
            'set with PUBLIC_URL',
        ]
      : []),
  ];
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  // Every problem at once, so one start names all there is to fix.
  if ('problem' in trustProxy) problems.push(trustProxy.problem);
  if (problems.length > 0 || !('trust' in trustProxy)) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const requests = requestsConfig(e, (message) => new ConfigError(message));
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    localTrial,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    webRoot: e.WEB_ROOT === undefined ? REPOSITORY_ROOT : path.resolve(cwd, e.WEB_ROOT),
    serveWeb: e.SERVE_WEB ?? isProduction,
    remotes: Object.fromEntries(
      WEB_REMOTES.map((remote) => [remote.name, remoteUrls.data[remote.variable] ?? remote.defaultManifestUrl]),
    ),
    trustProxy: trustProxy.trust,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    operatorEmail: e.OPERATOR_EMAIL,
    appId: e.APP_ID,
    rsaPrivateKeyPem: e.RSA_PRIVATE_KEY,
    authSecret: e.AUTH_SECRET,
    vapidPrivateKey: e.VAPID_PRIVATE_KEY,
    pushAllowLoopback: e.PUSH_ALLOW_LOOPBACK ?? false,
    devTools: {
      outbox: e.DEV_OUTBOX ?? localTrial,
      billing: e.DEV_BILLING_TOOLS ?? false,
      // 192 bits from the system's CSPRNG: a new one for each start, unless the operator chose one.
      token: e.DEV_TOOLS_TOKEN ?? randomBytes(24).toString('base64url'),
      tokenFromEnvironment: e.DEV_TOOLS_TOKEN !== undefined,
    },
    defaultedInDeployment: !localTrial && !env.OPERATOR_EMAIL?.trim() ? ['OPERATOR_EMAIL'] : [],
    authThrottleScale: e.AUTH_THROTTLE_SCALE,
    requests,
    billing: billingConfig(e, localTrial, (message) => new ConfigError(message)),
    nominatimUrl: e.NOMINATIM_URL?.replace(/\/+$/, ''),
    retentionDays: e.RETENTION_DAYS,
    map: { tileUrl: e.TILE_URL, tileAttribution: e.TILE_ATTRIBUTION },
  };
}

/** 127.0.0.0/8, ::1 and the name localhost: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const plain = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (plain === 'localhost' || plain === '::1') return true;
  return net.isIPv4(plain) && plain.startsWith('127.');
}

/** Listening beyond this machine is a deployment: it needs the address people use. */
function listeningProblems(host: string, localTrial: boolean): string[] {
  if (!localTrial || isLoopbackHost(host)) return [];
  return [
    `  HOST: ${JSON.stringify(host)} lets other machines reach Kabari, which makes it a deployment: set PUBLIC_URL ` +
      'to the address people use (such as https://kabari.example.com; see docs/deploy.md), or leave HOST unset ' +
      'for a local trial on 127.0.0.1',
  ];
}

/** In a deployment the dev tools print no token to the terminal (or a log): the operator must choose it. */
function devToolsProblems(
  e: {
    DEV_OUTBOX?: boolean | undefined;
    DEV_BILLING_TOOLS?: boolean | undefined;
    DEV_TOOLS_TOKEN?: string | undefined;
  },
  localTrial: boolean,
): string[] {
  if (localTrial || e.DEV_TOOLS_TOKEN !== undefined) return [];
  const asked = (['DEV_OUTBOX', 'DEV_BILLING_TOOLS'] as const).filter((name) => e[name] === true);
  return asked.map(
    (name) =>
      `  ${name}: with PUBLIC_URL set, the /dev tools need DEV_TOOLS_TOKEN (32 or more letters and digits, ` +
      'such as the output of `openssl rand -hex 24`): it is never printed in a deployment',
  );
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  // A /0 range is every address: the same as "true" (and proxy-addr refuses it).
  return Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed: their addresses and ranges (and proxy-addr's names
 * loopback, linklocal, uniquelocal). "true" would believe any client's header, so it is refused. So is a number of
 * proxies: it names no address, so it cannot tell the proxy from a client sending the header itself, and Fastify
 * believes no one under it (every visitor would share the proxy's address, and its limits).
 */
function parseTrustProxy(value: string | undefined): { trust: false | string[] } | { problem: string } {
  if (value === undefined || value === 'false' || value === '0') return { trust: false };
  if (value === 'true') {
    return {
      problem:
        '  TRUST_PROXY: "true" would believe the X-Forwarded-For header of any client, so anyone could choose the ' +
        "address Kabari sees: set the proxy's address instead (127.0.0.1 for nginx on this machine, or its " +
        'network, such as 10.0.0.0/8)',
    };
  }
  if (/^\d+$/.test(value)) {
    return {
      problem:
        `  TRUST_PROXY: a number of proxies (${JSON.stringify(value)}) does not say which address to believe, so ` +
        'every visitor would be seen at the proxy’s address: set the proxies’ addresses instead (127.0.0.1 for ' +
        'nginx on this machine, or its network, such as 10.0.0.0/8)',
    };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isAddressOrRange(entry));
  if (wrong.length > 0) {
    return {
      problem:
        `  TRUST_PROXY: expected the proxies' addresses or ranges (such as 127.0.0.1 or 10.0.0.0/8, comma ` +
        `separated); not understood: ${wrong.map((entry) => JSON.stringify(entry)).join(', ')}`,
    };
  }
  return { trust: entries };
}

/**
 * What the server says at start: where each channel's messages go and how to read the local ones; in a
 * deployment, what was left to a default or opted into. `terminal` holds the lines that carry a secret (the dev
 * tools' token): printed to the terminal, never to the log.
 */
export function startupNotes(config: Config): { info: string[]; warnings: string[]; terminal: string[] } {
  const email = config.smtpUrl ? 'email: SMTP (SMTP_URL)' : 'email: local outbox (no SMTP_URL)';
  const receipts = twilioStatusCallback(config.publicUrl, config.localTrial);
  const sms = !config.requests.twilio
    ? 'SMS: local outbox (no TWILIO_*)'
    : receipts
      ? `SMS: Twilio (TWILIO_*), delivery receipts posted to ${receipts}`
      : 'SMS: Twilio (TWILIO_*), without delivery receipts (Twilio can post them only to an https PUBLIC_URL)';
  const info = [`Messages: ${email}; ${sms}`];
  if (config.requests.whatsapp) {
    info.push(
      `WhatsApp: Twilio from ${config.requests.whatsapp.from} with the approved templates of TWILIO_WHATSAPP_TEMPLATE_*; ` +
        'receipts come with the SMS ones, and a number without WhatsApp gets an SMS instead',
    );
  }
  const terminal: string[] = [];
  const warnings: string[] = [];
  const { devTools } = config;
  if (config.localTrial) {
    info.push(
      `Local trial (no PUBLIC_URL): listening on ${config.host} only, links point to ${config.publicUrl}. ` +
        'Set PUBLIC_URL to deploy (docs/deploy.md).',
    );
  }
  const tools = [
    ...(devTools.outbox ? [`${config.publicUrl}/dev/outbox`] : []),
    ...(devTools.billing ? [`${config.publicUrl}/dev/subscriptions/*`] : []),
  ];
  if (tools.length > 0) {
    if (devTools.tokenFromEnvironment) {
      info.push(`Dev tools, with ?token=<DEV_TOOLS_TOKEN>: ${tools.join(', ')}`);
    } else {
      info.push(`Dev tools: ${tools.join(', ')} (the address with its token is printed on the terminal, not logged)`);
      if (devTools.outbox) {
        terminal.push(
          `Read the local outbox (reset codes, consent links) at ${config.publicUrl}/dev/outbox?token=${devTools.token}`,
        );
      }
      if (devTools.billing) terminal.push(`Dev billing tools: add ?token=${devTools.token} to /dev/subscriptions/*`);
    }
  }
  if (!config.localTrial) {
    if (!config.databaseUrl) {
      // PGlite's file system layer makes fsync a no-op: its writes reach the system's file cache, not the disk.
      warnings.push(
        'DATABASE_URL is not set: the data is in the embedded database in DATA_DIR, which keeps every answered write ' +
          'through a crash of the server but cannot flush it to disk, so a power cut or a crash of the machine can ' +
          'lose the latest ones. Set DATABASE_URL to a PostgreSQL database (docs/deploy.md).',
      );
    }
    if (devTools.outbox) warnings.push('DEV_OUTBOX is on: /dev/outbox shows every message sent, reset codes included');
    if (devTools.billing) warnings.push('DEV_BILLING_TOOLS is on: /dev/subscriptions/* can end any subscription');
    if (config.billing.sandbox) {
      warnings.push('PAYMENTS_SANDBOX is on: the sandbox processor takes payments and no money moves');
    } else if (!config.billing.stripe && !config.billing.paypal) {
      warnings.push(
        'Payments are not configured: set STRIPE_* or PAYPAL_* (server/README.md); until then sign-ups are refused',
      );
    }
  }
  if (config.defaultedInDeployment.includes('OPERATOR_EMAIL')) {
    warnings.push(
      `OPERATOR_EMAIL is not set: contact-form messages go to ${config.operatorEmail}, which nobody reads. ` +
        'Set OPERATOR_EMAIL to a real mailbox.',
    );
  }
  return { info, warnings, terminal };
}
