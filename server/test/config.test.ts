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
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({}, '/srv/kabari');
    expect(config).toMatchObject({
      nodeEnv: 'development',
      isProduction: false,
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/kabari/data',
      databaseUrl: undefined,
      logLevel: 'info',
      serveWeb: false,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
      remotes: {
        search: '/remotes/search/mf-manifest.json',
        dashboard: '/remotes/dashboard/mf-manifest.json',
        billing: '/remotes/billing/mf-manifest.json',
        share: '/remotes/share/mf-manifest.json',
      },
    });
    // The repository root, where host/dist and remote-*/dist are built.
    expect(config.webRoot).toBe(path.resolve(__dirname, '../..'));
  });

  it('shows the local outbox by default outside production only', () => {
    expect(loadConfig({}).devOutbox).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: 'true' }).devOutbox).toBe(true);
  });

  it('lets this machine read the outbox in production while no provider is configured', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).loopbackOutbox).toBe(true);
    expect(loadConfig({}).loopbackOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587' }).loopbackOutbox).toBe(false);
    const twilio = {
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'secret-token',
      TWILIO_FROM: '+15005550006',
    };
    expect(loadConfig({ NODE_ENV: 'production', ...twilio }).loopbackOutbox).toBe(false);
    // An explicit choice wins: false closes it, true opens it to everyone.
    expect(loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: 'false' }).loopbackOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: 'true' }).loopbackOutbox).toBe(false);
  });

  it('says at start where messages go and where to read them', () => {
    const local = startupNotes(loadConfig({ NODE_ENV: 'production', PORT: '9090' }));
    expect(local.info).toEqual([
      'Messages: email: local outbox (no SMTP_URL); SMS: local outbox (no TWILIO_*)',
      expect.stringContaining('from this machine only: http://localhost:9090/dev/outbox'),
    ]);
    const smtp = startupNotes(
      loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://kabari.id' }),
    );
    expect(smtp.info).toEqual(['Messages: email: SMTP (SMTP_URL); SMS: local outbox (no TWILIO_*)']);
    const development = startupNotes(loadConfig({ PUBLIC_URL: 'http://localhost:5173' }));
    expect(development.info).toContain('Local outbox: http://localhost:5173/dev/outbox');
  });

  it('warns in production when PUBLIC_URL or OPERATOR_EMAIL is left to its default, without requiring them', () => {
    const bare = loadConfig({ NODE_ENV: 'production' });
    expect(bare.defaultedInProduction).toEqual(['PUBLIC_URL', 'OPERATOR_EMAIL']);
    const warnings = startupNotes(bare).warnings;
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^PUBLIC_URL is not set: .*http:\/\/localhost:8080/);
    expect(warnings[1]).toMatch(/^OPERATOR_EMAIL is not set: .*operator@kabari\.localhost/);

    const half = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://kabari.id', OPERATOR_EMAIL: ' ' });
    expect(half.defaultedInProduction).toEqual(['OPERATOR_EMAIL']);
    const configured = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://kabari.id',
      OPERATOR_EMAIL: 'support@kabari.id',
    });
    expect(startupNotes(configured).warnings).toEqual([]);
    // Outside production the defaults are the right ones.
    expect(startupNotes(loadConfig({})).warnings).toEqual([]);
  });

  it('serves the web apps by default in production only', () => {
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
    });
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
});
