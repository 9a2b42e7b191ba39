import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';

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
