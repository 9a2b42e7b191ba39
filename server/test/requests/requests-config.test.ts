import { ConfigError, loadConfig } from '../../src/config';

const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
  TWILIO_AUTH_TOKEN: 'secret-token',
  TWILIO_FROM: '+15005550006',
};

describe('requests configuration', () => {
  it('has no Twilio and 7-day links by default', () => {
    expect(loadConfig({}).requests).toEqual({ twilio: undefined, linkExpiryDays: 7 });
  });

  it('takes Twilio with all three variables, and LINK_EXPIRY_DAYS', () => {
    const config = loadConfig({ ...TWILIO, LINK_EXPIRY_DAYS: '14', PUBLIC_URL: 'https://kabari.example' });
    expect(config.requests).toEqual({
      twilio: { accountSid: TWILIO.TWILIO_ACCOUNT_SID, authToken: 'secret-token', from: '+15005550006' },
      linkExpiryDays: 14,
    });
  });

  it('stops on a half-configured Twilio, naming what is missing without echoing the token', () => {
    expect(() => loadConfig({ TWILIO_AUTH_TOKEN: 'secret-token' })).toThrow(ConfigError);
    try {
      loadConfig({ TWILIO_AUTH_TOKEN: 'secret-token' });
    } catch (error) {
      expect((error as Error).message).toContain('TWILIO_ACCOUNT_SID: required when Twilio is configured');
      expect((error as Error).message).toContain('TWILIO_FROM: required when Twilio is configured');
      expect((error as Error).message).not.toContain('secret-token');
    }
  });

  it('refuses a malformed account SID, sender or expiry', () => {
    expect(() => loadConfig({ ...TWILIO, TWILIO_ACCOUNT_SID: 'AB123' })).toThrow(/TWILIO_ACCOUNT_SID: expected/);
    expect(() => loadConfig({ ...TWILIO, TWILIO_FROM: 'not a sender id!' })).toThrow(/TWILIO_FROM: expected/);
    expect(() => loadConfig({ LINK_EXPIRY_DAYS: '0' })).toThrow(/LINK_EXPIRY_DAYS: expected a whole number/);
  });
});
