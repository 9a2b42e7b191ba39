import { ConfigError, loadConfig } from '../../src/config';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env, '/srv/kabari');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

const MIDTRANS = { MIDTRANS_SERVER_KEY: 'SB-Mid-server-abc123', MIDTRANS_MERCHANT_NAME: 'Kabari' };
const DEPLOYMENT = { PUBLIC_URL: 'https://kabari.example', HOST: '0.0.0.0', TRUST_PROXY: 'loopback' };

describe('Midtrans settings', () => {
  it('is off without its server key, and the sandbox then offers the local channels in a trial', () => {
    const config = loadConfig({}, '/srv/kabari');
    expect(config.billing.midtrans).toBeUndefined();
    expect(config.billing.sandbox).toBe(true);
  });

  it('takes the server key and merchant name, sandbox by default for an SB- key, and turns the sandbox off', () => {
    const billing = loadConfig(MIDTRANS, '/srv/kabari').billing;
    expect(billing.midtrans).toEqual({
      serverKey: 'SB-Mid-server-abc123',
      environment: 'sandbox',
      merchantName: 'Kabari',
      apiUrl: undefined,
    });
    expect(billing.sandbox).toBe(false);
    expect(
      loadConfig({ ...MIDTRANS, MIDTRANS_SERVER_KEY: 'Mid-server-abc', MIDTRANS_ENVIRONMENT: 'production' }).billing
        .midtrans?.environment,
    ).toBe('production');
  });

  it('refuses a half-configured gateway with the names to fix', () => {
    expect(configError({ MIDTRANS_MERCHANT_NAME: 'Kabari' })).toContain(
      'MIDTRANS_SERVER_KEY: required when MIDTRANS_MERCHANT_NAME is set',
    );
    expect(configError({ MIDTRANS_SERVER_KEY: 'SB-Mid-server-abc123' })).toContain(
      'MIDTRANS_MERCHANT_NAME: required when Midtrans is configured',
    );
    expect(configError({ ...MIDTRANS, MIDTRANS_ENVIRONMENT: 'production' })).toContain(
      'MIDTRANS_ENVIRONMENT: production with a sandbox server key',
    );
    expect(configError({ ...MIDTRANS, MIDTRANS_SERVER_KEY: 'Mid-server-abc' })).toContain(
      'MIDTRANS_ENVIRONMENT: required with a production server key',
    );
    expect(configError({ ...MIDTRANS, MIDTRANS_SERVER_KEY: 'SB-Mid-client-abc' })).toContain(
      'MIDTRANS_SERVER_KEY: expected the server key',
    );
    expect(configError({ ...MIDTRANS, PAYMENTS_SANDBOX: 'true' })).toContain(
      'PAYMENTS_SANDBOX: the sandbox is never offered beside a real provider',
    );
  });

  it("takes the local fake's address in a local trial only, never in a deployment", () => {
    expect(loadConfig({ ...MIDTRANS, MIDTRANS_API_URL: 'http://127.0.0.1:4010/' }).billing.midtrans?.apiUrl).toBe(
      'http://127.0.0.1:4010',
    );
    expect(configError({ ...MIDTRANS, ...DEPLOYMENT, MIDTRANS_API_URL: 'http://127.0.0.1:4010' })).toContain(
      'MIDTRANS_API_URL: points Midtrans at a local fake, for tests only',
    );
  });
});
