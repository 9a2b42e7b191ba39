import { createECDH } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, startupNotes } from '../src/config';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env, '/srv/kabari');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('has working defaults for a fresh machine: production, a local trial on 127.0.0.1', () => {
    const config = loadConfig({}, '/srv/kabari');
    expect(config).toMatchObject({
      nodeEnv: 'production',
      isProduction: true,
      localTrial: true,
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/kabari/data',
      databaseUrl: undefined,
      logLevel: 'info',
      serveWeb: true,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
      trustProxy: false,
      remotes: {
        search: '/remotes/search/mf-manifest.json',
        dashboard: '/remotes/dashboard/mf-manifest.json',
        billing: '/remotes/billing/mf-manifest.json',
        share: '/remotes/share/mf-manifest.json',
        operator: '/remotes/operator/mf-manifest.json',
      },
    });
    // The repository root, where host/dist and remote-*/dist are built.
    expect(config.webRoot).toBe(path.resolve(__dirname, '../..'));
  });

  it('runs in development only when asked (NODE_ENV=development, as npm run dev sets it), still on 127.0.0.1', () => {
    // `node server/dist/server.js` with nothing set is production, like `npm start`.
    expect(loadConfig({}).isProduction).toBe(true);
    const development = loadConfig({ NODE_ENV: 'development' });
    expect(development).toMatchObject({ nodeEnv: 'development', isProduction: false, host: '127.0.0.1' });
  });

  it('refuses to listen beyond this machine without PUBLIC_URL, saying what to set', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'kabari.lan']) {
      const message = configError({ HOST: host });
      expect(message).toContain(`HOST: ${JSON.stringify(host)} lets other machines reach Kabari`);
      expect(message).toContain('set PUBLIC_URL to the address people use');
    }
    expect(configError({ HOST: '0.0.0.0', NODE_ENV: 'development' })).toContain('PUBLIC_URL');
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1', '[::1]']) {
      expect(loadConfig({ HOST: host }).host).toBe(host);
    }
    const deployed = loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://kabari.example.com/' });
    expect(deployed).toMatchObject({ host: '0.0.0.0', localTrial: false, publicUrl: 'https://kabari.example.com' });
  });

  it('PUBLIC_URL separates a local trial (outbox and sandbox on) from a deployment (both off unless asked)', () => {
    const trial = loadConfig({});
    expect(trial.devTools).toMatchObject({ outbox: true, billing: false });
    expect(trial.billing.sandbox).toBe(true);
    const deployment = loadConfig({ PUBLIC_URL: 'https://kabari.example.com' });
    expect(deployment.devTools).toMatchObject({ outbox: false, billing: false });
    expect(deployment.billing.sandbox).toBe(false);
    // Each by name, in a deployment with a token the operator chose.
    const token = 'a'.repeat(32);
    const staging = loadConfig({
      PUBLIC_URL: 'https://staging.kabari.example.com',
      DEV_OUTBOX: 'true',
      DEV_BILLING_TOOLS: 'true',
      DEV_TOOLS_TOKEN: token,
      PAYMENTS_SANDBOX: 'true',
    });
    expect(staging.devTools).toEqual({ outbox: true, billing: true, token, tokenFromEnvironment: true });
    expect(staging.billing.sandbox).toBe(true);
    // The trial may turn them off.
    expect(loadConfig({ DEV_OUTBOX: 'false', PAYMENTS_SANDBOX: 'false' })).toMatchObject({
      devTools: { outbox: false },
      billing: { sandbox: false },
    });
  });

  it('never runs the sandbox beside a real provider, and refuses to be asked to', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    expect(loadConfig(stripe).billing.sandbox).toBe(false);
    expect(configError({ ...stripe, PAYMENTS_SANDBOX: 'true' })).toContain(
      'PAYMENTS_SANDBOX: the sandbox is never offered beside a real provider',
    );
  });

  it('guards the dev tools with a random token for each start, or the one the operator sets', () => {
    const first = loadConfig({}).devTools;
    const second = loadConfig({}).devTools;
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second.token).not.toBe(first.token);
    expect(first.tokenFromEnvironment).toBe(false);
    const chosen = 'e2e-token-0123456789abcdef0123456789';
    expect(loadConfig({ DEV_TOOLS_TOKEN: chosen }).devTools).toMatchObject({
      token: chosen,
      tokenFromEnvironment: true,
    });
    const short = configError({ DEV_TOOLS_TOKEN: 'letmein' });
    expect(short).toContain('DEV_TOOLS_TOKEN: expected 32 to 128 letters');
    expect(short).not.toContain('letmein');
    // In a deployment the token is never printed, so asking for a dev tool means choosing it.
    expect(configError({ PUBLIC_URL: 'https://kabari.example.com', DEV_OUTBOX: 'true' })).toContain(
      'DEV_OUTBOX: with PUBLIC_URL set, the /dev tools need DEV_TOOLS_TOKEN',
    );
  });

  it('takes TRUST_PROXY as the proxies’ addresses, and refuses "true" or a number of proxies, saying what to set', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    const blanket = configError({ TRUST_PROXY: 'true' });
    expect(blanket).toContain('TRUST_PROXY: "true" would believe the X-Forwarded-For header of any client');
    expect(blanket).toContain('127.0.0.1 for nginx on this machine');
    expect(configError({ TRUST_PROXY: 'everyone' })).toContain('not understood: "everyone"');
    expect(configError({ TRUST_PROXY: '10.0.0.0/40' })).toContain('not understood: "10.0.0.0/40"');
    expect(configError({ TRUST_PROXY: '0.0.0.0/0' })).toContain('not understood: "0.0.0.0/0"');
    // Fastify believes no one under a hop count: every visitor would be seen at the proxy's address.
    expect(configError({ TRUST_PROXY: '1' })).toContain(
      'TRUST_PROXY: a number of proxies ("1") does not say which address to believe',
    );
    expect(configError({ TRUST_PROXY: '1' })).toContain('127.0.0.1 for nginx on this machine');
  });

  it('says at start where messages go and how to read them; the token only on the terminal', () => {
    const local = startupNotes(loadConfig({ PORT: '9090' }));
    expect(local.info).toEqual([
      'Messages: email: local outbox (no SMTP_URL); SMS: local outbox (no TWILIO_*)',
      expect.stringContaining('Local trial (no PUBLIC_URL): listening on 127.0.0.1 only'),
      expect.stringContaining('Dev tools: http://localhost:9090/dev/outbox (the address with its token is printed'),
    ]);
    const token = local.terminal.join('\n').match(/\/dev\/outbox\?token=([\w-]+)/)?.[1];
    expect(token).toHaveLength(32);
    expect([...local.info, ...local.warnings].join('\n')).not.toContain(token);
    const chosen = 'c'.repeat(40);
    const given = startupNotes(loadConfig({ DEV_TOOLS_TOKEN: chosen, DEV_BILLING_TOOLS: 'true' }));
    expect(given.info).toContain(
      'Dev tools, with ?token=<DEV_TOOLS_TOKEN>: http://localhost:8080/dev/outbox, http://localhost:8080/dev/subscriptions/*',
    );
    expect(given.terminal).toEqual([]);
    const smtp = startupNotes(
      loadConfig({
        SMTP_URL: 'smtp://mail.example.com',
        PUBLIC_URL: 'https://kabari.id',
        OPERATOR_EMAIL: 'support@kabari.id',
      }),
    );
    expect(smtp.info).toEqual(['Messages: email: SMTP (SMTP_URL); SMS: local outbox (no TWILIO_*)']);
    expect(smtp.terminal).toEqual([]);
    const twilio = {
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15005550006',
    };
    expect(startupNotes(loadConfig({ ...twilio, PUBLIC_URL: 'https://kabari.id' })).info[0]).toBe(
      'Messages: email: local outbox (no SMTP_URL); SMS: Twilio (TWILIO_*), delivery receipts posted to ' +
        'https://kabari.id/api/v1/webhooks/twilio/status',
    );
    expect(startupNotes(loadConfig(twilio)).info[0]).toMatch(/without delivery receipts \(.*https PUBLIC_URL\)$/);
    const whatsapp = {
      ...twilio,
      TWILIO_WHATSAPP_FROM: '+14155238886',
      TWILIO_WHATSAPP_TEMPLATE_EN: `HX${'a'.repeat(32)}`,
      TWILIO_WHATSAPP_TEMPLATE_ID: `HX${'b'.repeat(32)}`,
    };
    expect(startupNotes(loadConfig(whatsapp)).info).toContain(
      'WhatsApp: Twilio from whatsapp:+14155238886 with the approved templates of TWILIO_WHATSAPP_TEMPLATE_*; ' +
        'receipts come with the SMS ones, and a number without WhatsApp gets an SMS instead',
    );
    expect(startupNotes(loadConfig(twilio)).info.join('\n')).not.toContain('WhatsApp');
  });

  it('warns in a deployment about the embedded database, OPERATOR_EMAIL, missing payment keys and each opt-in', () => {
    const bare = loadConfig({ PUBLIC_URL: 'https://kabari.id' });
    expect(bare.defaultedInDeployment).toEqual(['OPERATOR_EMAIL']);
    expect(startupNotes(bare).warnings).toEqual([
      expect.stringMatching(/^DATABASE_URL is not set: .*a power cut or a crash of the machine can lose/),
      'Payments are not configured: set STRIPE_* or PAYPAL_* (server/README.md); until then sign-ups are refused',
      expect.stringMatching(/^OPERATOR_EMAIL is not set: .*operator@kabari\.localhost/),
    ]);
    const staging = loadConfig({
      PUBLIC_URL: 'https://kabari.id',
      DATABASE_URL: 'postgres://kabari@127.0.0.1:5432/kabari',
      OPERATOR_EMAIL: 'support@kabari.id',
      PAYMENTS_SANDBOX: 'true',
      DEV_OUTBOX: 'true',
      DEV_TOOLS_TOKEN: 'd'.repeat(32),
    });
    expect(startupNotes(staging).warnings).toEqual([
      'DEV_OUTBOX is on: /dev/outbox shows every message sent, reset codes included',
      'PAYMENTS_SANDBOX is on: the sandbox processor takes payments and no money moves',
    ]);
    // A local trial's defaults are the right ones for it.
    expect(startupNotes(loadConfig({})).warnings).toEqual([]);
  });

  it('serves the web apps by default in production only', () => {
    expect(loadConfig({}).serveWeb).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).serveWeb).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).serveWeb).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SERVE_WEB: 'false' }).serveWeb).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', SERVE_WEB: 'true' }).serveWeb).toBe(true);
  });

  it('reads PORT, DATA_DIR (against the working directory), DATABASE_URL and the remote overrides', () => {
    const config = loadConfig(
      {
        PORT: '18080',
        DATA_DIR: 'var/db',
        DATABASE_URL: 'postgres://kabari@db.internal:5432/kabari',
        REMOTE_SHARE_URL: 'https://cdn.example.com/share/mf-manifest.json',
        REMOTE_SEARCH_URL: '/other/search/mf-manifest.json',
      },
      '/srv/kabari',
    );
    expect(config.port).toBe(18080);
    expect(config.dataDir).toBe('/srv/kabari/var/db');
    expect(config.databaseUrl).toBe('postgres://kabari@db.internal:5432/kabari');
    expect(config.remotes.share).toBe('https://cdn.example.com/share/mf-manifest.json');
    expect(config.remotes.search).toBe('/other/search/mf-manifest.json');
    expect(config.remotes.billing).toBe('/remotes/billing/mf-manifest.json');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it.each(['abc', '70000', '-1', '80.5'])('refuses PORT=%s and names PORT', (port) => {
    const message = configError({ PORT: port });
    expect(message).toContain('PORT');
    expect(message).toContain(JSON.stringify(port));
  });

  it('names every wrong variable, without echoing secrets', () => {
    const message = configError({
      NODE_ENV: 'staging',
      DATABASE_URL: 'mysql://root:hunter2@localhost/db',
      SERVE_WEB: 'maybe',
      REMOTE_BILLING_URL: 'ftp://example.com/x',
      DEV_TOOLS_TOKEN: 'hunter3',
    });
    expect(message).toMatch(/DEV_TOOLS_TOKEN/);
    expect(message).not.toContain('hunter3');
    expect(message).toMatch(/NODE_ENV/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/SERVE_WEB/);
    expect(message).toMatch(/REMOTE_BILLING_URL/);
    expect(message).not.toContain('hunter2');
  });

  it('sends contact-form messages to OPERATOR_EMAIL, and refuses a value that is not an address', () => {
    expect(loadConfig({}).operatorEmail).toBe('operator@kabari.localhost');
    expect(loadConfig({ OPERATOR_EMAIL: 'help@kabari.id' }).operatorEmail).toBe('help@kabari.id');
    expect(configError({ OPERATOR_EMAIL: 'help at kabari' })).toMatch(/OPERATOR_EMAIL: expected an email address/);
  });

  it('refuses an RSA_PRIVATE_KEY that is not an RSA private key', () => {
    expect(configError({ RSA_PRIVATE_KEY: 'not a key' })).toContain('RSA_PRIVATE_KEY');
  });

  it('takes VAPID_PRIVATE_KEY as a P-256 private key, and refuses anything else without echoing it', () => {
    const privateKey = createECDH('prime256v1');
    privateKey.generateKeys();
    const key = privateKey.getPrivateKey().toString('base64url');
    expect(loadConfig({ VAPID_PRIVATE_KEY: key }).vapidPrivateKey).toBe(key);
    expect(loadConfig({}).vapidPrivateKey).toBeUndefined();
    for (const wrong of ['short', 'A'.repeat(43).replace(/A$/, '='), Buffer.alloc(32).toString('base64url')]) {
      const message = configError({ VAPID_PRIVATE_KEY: wrong });
      expect(message).toContain('VAPID_PRIVATE_KEY: expected a P-256 private key as 43 base64url characters');
      expect(message).toContain('the given value is not shown');
    }
  });

  it('lets push go to this machine’s own services only when a test asks, and never in a deployment', () => {
    expect(loadConfig({}).pushAllowLoopback).toBe(false);
    expect(loadConfig({ PUSH_ALLOW_LOOPBACK: 'true' }).pushAllowLoopback).toBe(true);
    expect(configError({ PUSH_ALLOW_LOOPBACK: 'true', PUBLIC_URL: 'https://kabari.example' })).toContain(
      'PUSH_ALLOW_LOOPBACK: lets push messages go to services on this machine, for tests only',
    );
  });

  it("reads Apple Pay's domain file once at start, with Stripe only, and refuses one it cannot use", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-apple-pay-'));
    try {
      const stripe = {
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      };
      const file = path.join(dir, 'apple-developer-merchantid-domain-association');
      fs.writeFileSync(file, '7B227073704964223A2239373943394538');
      expect(loadConfig({ ...stripe, APPLE_PAY_DOMAIN_FILE: file }).billing.applePayDomainFile).toBe(
        '7B227073704964223A2239373943394538',
      );
      expect(loadConfig(stripe).billing.applePayDomainFile).toBeUndefined();
      expect(configError({ APPLE_PAY_DOMAIN_FILE: file })).toContain(
        'APPLE_PAY_DOMAIN_FILE: Apple Pay is offered through Stripe: set the STRIPE_* keys too',
      );
      expect(configError({ ...stripe, APPLE_PAY_DOMAIN_FILE: path.join(dir, 'missing') })).toContain(
        'APPLE_PAY_DOMAIN_FILE: cannot read',
      );
      const empty = path.join(dir, 'empty');
      fs.writeFileSync(empty, '\n');
      expect(configError({ ...stripe, APPLE_PAY_DOMAIN_FILE: empty })).toContain(
        `APPLE_PAY_DOMAIN_FILE: ${empty} is empty`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
