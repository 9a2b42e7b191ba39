import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';

export const localeField = z.enum(['en', 'id'], { message: inputMessage('requests.chooseLocale') });

export const countryField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, inputMessage('requests.chooseCountry'))
  .describe('ISO 3166 alpha-2: the country of a national number');

export const numberLookupQuery = z.object({
  // Optional in the schema so that an empty or missing number gets the form's own message, not a schema error.
  number: z
    .string()
    .max(64, inputMessage('common.enterValidMobile'))
    .optional()
    .describe('E.164, or national with country'),
  country: countryField.optional(),
  locale: localeField.default('en').describe('Language of the country and region names'),
});

export const numberFacts = z.object({
  e164: z.string(),
  valid: z.boolean(),
  countryCode: z.string().nullable(),
  countryName: z.string().nullable(),
  region: z.string().nullable().describe('Where the number range is assigned (geographic numbers only)'),
  carrier: z.string().nullable().describe('The carrier the range was assigned to (the number may have moved since)'),
  timeZones: z.array(z.string()).nullable(),
  lineType: z
    .enum([
      'mobile',
      'fixed_line',
      'fixed_line_or_mobile',
      'toll_free',
      'premium_rate',
      'shared_cost',
      'voip',
      'personal_number',
      'pager',
      'uan',
      'voicemail',
    ])
    .nullable(),
});

export const numberLookupResponse = envelope(
  numberFacts.extend({
    smsAllowed: z.boolean().describe("Whether Kabari sends SMS to this number's country (SMS_COUNTRIES)"),
    smsRefusal: z
      .string()
      .optional()
      .describe('When smsAllowed is false: why, and what to use instead, in the language asked for'),
  }),
);
