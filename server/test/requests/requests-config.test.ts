import { ConfigError, loadConfig } from '../../src/config';

const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
  TWILIO_AUTH_TOKEN: 'secret-token',
  TWILIO_FROM: '+15005550006',
};

const DEFAULT_SEND_LIMITS = {
  smsPerAccountPerDay: 10,
  emailPerAccountPerDay: 20,
  smsDailyBudget: 200,
  smsCountries: ['ID'],
};

describe('requests configuration', () => {
  it('has no Twilio, 7-day links and the documented send limits by default', () => {
    expect(loadConfig({}).requests).toEqual({
      twilio: undefined,
      linkExpiryDays: 7,
      sendLimits: DEFAULT_SEND_LIMITS,
      smsPrice: undefined,
    });
  });

  it('takes an SMS price with its currency, and refuses a malformed one', () => {
    expect(loadConfig({ SMS_PRICE_MINOR: '3500', SMS_PRICE_CURRENCY: 'IDR' }).requests.smsPrice).toEqual({
      minor: 3500,
      currency: 'IDR',
    });
    expect(loadConfig({ SMS_PRICE_MINOR: '8' }).requests.smsPrice).toEqual({ minor: 8, currency: 'USD' });
    expect(() => loadConfig({ SMS_PRICE_MINOR: '-1' })).toThrow(ConfigError);
    expect(loadConfig({ WHATSAPP_PRICE_MINOR: '450', SMS_PRICE_CURRENCY: 'IDR' }).requests.whatsappPrice).toEqual({
      minor: 450,
      currency: 'IDR',
    });
    expect(loadConfig({}).requests.whatsappPrice).toBeUndefined();
    expect(() => loadConfig({ WHATSAPP_PRICE_MINOR: '1.5' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMS_PRICE_MINOR: '8', SMS_PRICE_CURRENCY: 'dollars' })).toThrow(ConfigError);
  });

  it('takes Twilio with all three variables, and LINK_EXPIRY_DAYS', () => {
    const config = loadConfig({ ...TWILIO, LINK_EXPIRY_DAYS: '14', PUBLIC_URL: 'https://kabari.example' });
    expect(config.requests).toEqual({
      twilio: { accountSid: TWILIO.TWILIO_ACCOUNT_SID, authToken: 'secret-token', from: '+15005550006' },
      linkExpiryDays: 14,
      sendLimits: DEFAULT_SEND_LIMITS,
      smsPrice: undefined,
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

  it('takes WhatsApp with its sender and a template per language, all or none, and only beside Twilio', () => {
    const whatsapp = {
      TWILIO_WHATSAPP_FROM: '+14155238886',
      TWILIO_WHATSAPP_TEMPLATE_EN: `HX${'a'.repeat(32)}`,
      TWILIO_WHATSAPP_TEMPLATE_ID: `HX${'b'.repeat(32)}`,
    };
    expect(loadConfig(TWILIO).requests.whatsapp).toBeUndefined();
    expect(loadConfig({ ...TWILIO, ...whatsapp }).requests.whatsapp).toEqual({
      from: 'whatsapp:+14155238886',
      templates: { en: `HX${'a'.repeat(32)}`, id: `HX${'b'.repeat(32)}` },
    });
    const prefixed = { ...TWILIO, ...whatsapp, TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886' };
    expect(loadConfig(prefixed).requests.whatsapp?.from).toBe('whatsapp:+14155238886');

    const { TWILIO_WHATSAPP_TEMPLATE_ID: _id, ...withoutIndonesian } = whatsapp;
    expect(() => loadConfig({ ...TWILIO, ...withoutIndonesian })).toThrow(
      /TWILIO_WHATSAPP_TEMPLATE_ID: required when WhatsApp is configured/,
    );
    expect(() => loadConfig(whatsapp)).toThrow(/WhatsApp needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM/);
    expect(() => loadConfig({ ...TWILIO, ...whatsapp, TWILIO_WHATSAPP_FROM: 'MG123' })).toThrow(
      /TWILIO_WHATSAPP_FROM: expected a WhatsApp sender/,
    );
    expect(() => loadConfig({ ...TWILIO, ...whatsapp, TWILIO_WHATSAPP_TEMPLATE_EN: 'check-in' })).toThrow(
      /TWILIO_WHATSAPP_TEMPLATE_EN: expected an approved template's content SID/,
    );
  });

  it('refuses a malformed account SID, sender or expiry', () => {
    expect(() => loadConfig({ ...TWILIO, TWILIO_ACCOUNT_SID: 'AB123' })).toThrow(/TWILIO_ACCOUNT_SID: expected/);
    expect(() => loadConfig({ ...TWILIO, TWILIO_FROM: 'not a sender id!' })).toThrow(/TWILIO_FROM: expected/);
    expect(() => loadConfig({ LINK_EXPIRY_DAYS: '0' })).toThrow(/LINK_EXPIRY_DAYS: expected a whole number/);
  });

  it('takes the daily limits, the SMS budget and the SMS countries from the environment', () => {
    const config = loadConfig({
      SMS_PER_ACCOUNT_PER_DAY: '3',
      EMAIL_PER_ACCOUNT_PER_DAY: '0',
      SMS_DAILY_BUDGET: '1000',
      SMS_COUNTRIES: ' id, my ,SG,ID',
    });
    expect(config.requests.sendLimits).toEqual({
      smsPerAccountPerDay: 3,
      emailPerAccountPerDay: 0,
      smsDailyBudget: 1000,
      smsCountries: ['ID', 'MY', 'SG'],
    });
  });

  it('refuses a limit that is not a whole number, and a country that is not an ISO code', () => {
    expect(() => loadConfig({ SMS_PER_ACCOUNT_PER_DAY: '-1' })).toThrow(
      /SMS_PER_ACCOUNT_PER_DAY: expected a whole number from 0 to 10000/,
    );
    expect(() => loadConfig({ EMAIL_PER_ACCOUNT_PER_DAY: '2.5' })).toThrow(/EMAIL_PER_ACCOUNT_PER_DAY: expected/);
    expect(() => loadConfig({ SMS_DAILY_BUDGET: 'lots' })).toThrow(/SMS_DAILY_BUDGET: expected a whole number/);
    expect(() => loadConfig({ SMS_COUNTRIES: '+62' })).toThrow(/SMS_COUNTRIES: expected ISO 3166 alpha-2/);
    expect(() => loadConfig({ SMS_COUNTRIES: 'ID,XX' })).toThrow(/SMS_COUNTRIES: expected ISO 3166 alpha-2/);
    expect(() => loadConfig({ SMS_COUNTRIES: ',' })).toThrow(/SMS_COUNTRIES: expected ISO 3166 alpha-2/);
  });
});
