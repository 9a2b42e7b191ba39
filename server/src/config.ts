import { createPrivateKey } from 'node:crypto';
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

// Where host/dist and remote-*/dist live: the repository root, both from src/ and from dist/.
const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

export const REMOTE_NAMES = ['search', 'dashboard', 'billing', 'share'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

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
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
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
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'expected an integer between 0 and 65535' })
    .int('expected an integer between 0 and 65535')
    .min(0, 'expected an integer between 0 and 65535')
    .max(65535, 'expected an integer between 0 and 65535')
    .default(8080),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_ROOT: optionalText,
  SERVE_WEB: booleanFromEnv.optional(),
  REMOTE_SEARCH_URL: remoteManifestUrl,
  REMOTE_DASHBOARD_URL: remoteManifestUrl,
  REMOTE_BILLING_URL: remoteManifestUrl,
  REMOTE_SHARE_URL: remoteManifestUrl,
  // Behind a load balancer: true, a hop count, or a list of trusted proxy addresses.
  TRUST_PROXY: optionalText,
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
  // The local outbox page shows reset codes: open by default outside production only; in production with no
  // provider it is served to this machine only (loopbackOutbox), so `npm start` can complete a reset.
  DEV_OUTBOX: booleanFromEnv.optional(),
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
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  webRoot: string;
  serveWeb: boolean;
  remotes: Record<RemoteName, string>;
  trustProxy: boolean | number | string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  operatorEmail: string;
  appId: string;
  rsaPrivateKeyPem: string | undefined;
  authSecret: string | undefined;
  /** /dev/outbox (and the dev billing tools) for every caller. */
  devOutbox: boolean;
  /**
   * /dev/outbox for callers on this machine only: production with neither SMTP nor Twilio configured and DEV_OUTBOX
   * unset, i.e. `npm start` on a fresh machine, where no message could otherwise be read.
   */
  loopbackOutbox: boolean;
  /** The variables left to their defaults where a real deployment must set them (warned about at start). */
  defaultedInProduction: ('PUBLIC_URL' | 'OPERATOR_EMAIL')[];
  authThrottleScale: number;
  requests: RequestsConfig;
  billing: BillingConfig;
  nominatimUrl: string | undefined;
  retentionDays: number;
  map: MapConfig;
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
  if (/KEY|SECRET|PASSWORD|URL/.test(name)) return 'the given value is not shown';
  return `got ${JSON.stringify(value)}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  // An empty variable (PORT=) means "use the default", as if it were not set.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `  ${name}: ${issue.message} (${describeValue(env, name)})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const requests = requestsConfig(e, (message) => new ConfigError(message));
  const devOutbox = e.DEV_OUTBOX ?? !isProduction;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    webRoot: e.WEB_ROOT === undefined ? REPOSITORY_ROOT : path.resolve(cwd, e.WEB_ROOT),
    serveWeb: e.SERVE_WEB ?? isProduction,
    remotes: {
      search: e.REMOTE_SEARCH_URL ?? '/remotes/search/mf-manifest.json',
      dashboard: e.REMOTE_DASHBOARD_URL ?? '/remotes/dashboard/mf-manifest.json',
      billing: e.REMOTE_BILLING_URL ?? '/remotes/billing/mf-manifest.json',
      share: e.REMOTE_SHARE_URL ?? '/remotes/share/mf-manifest.json',
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    operatorEmail: e.OPERATOR_EMAIL,
    appId: e.APP_ID,
    rsaPrivateKeyPem: e.RSA_PRIVATE_KEY,
    authSecret: e.AUTH_SECRET,
    devOutbox,
    loopbackOutbox:
      !devOutbox && isProduction && e.DEV_OUTBOX === undefined && !e.SMTP_URL && requests.twilio === undefined,
    defaultedInProduction: isProduction
      ? (['PUBLIC_URL', 'OPERATOR_EMAIL'] as const).filter((name) => !env[name]?.trim())
      : [],
    authThrottleScale: e.AUTH_THROTTLE_SCALE,
    requests,
    billing: billingConfig(e, (message) => new ConfigError(message)),
    nominatimUrl: e.NOMINATIM_URL?.replace(/\/+$/, ''),
    retentionDays: e.RETENTION_DAYS,
    map: { tileUrl: e.TILE_URL, tileAttribution: e.TILE_ATTRIBUTION },
  };
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * What the server says at start: where each channel's messages go and, when they stay local, where to read them;
 * in production, which deployment variables were left to their defaults.
 */
export function startupNotes(config: Config): { info: string[]; warnings: string[] } {
  const email = config.smtpUrl ? 'email: SMTP (SMTP_URL)' : 'email: local outbox (no SMTP_URL)';
  const sms = config.requests.twilio ? 'SMS: Twilio (TWILIO_*)' : 'SMS: local outbox (no TWILIO_*)';
  const info = [`Messages: ${email}; ${sms}`];
  if (config.devOutbox) info.push(`Local outbox: ${config.publicUrl}/dev/outbox`);
  else if (config.loopbackOutbox) {
    info.push(
      `Local outbox, from this machine only: http://localhost:${config.port}/dev/outbox ` +
        '(set SMTP_URL or TWILIO_* for real delivery; the outbox page then goes away)',
    );
  }
  const warnings: string[] = [];
  if (config.defaultedInProduction.includes('PUBLIC_URL')) {
    warnings.push(
      `PUBLIC_URL is not set: links in emails, SMS and the sitemap point to ${config.publicUrl}, ` +
        'which only this machine can open. Set PUBLIC_URL to the address people use.',
    );
  }
  if (config.defaultedInProduction.includes('OPERATOR_EMAIL')) {
    warnings.push(
      `OPERATOR_EMAIL is not set: contact-form messages go to ${config.operatorEmail}, which nobody reads. ` +
        'Set OPERATOR_EMAIL to a real mailbox.',
    );
  }
  return { info, warnings };
}
