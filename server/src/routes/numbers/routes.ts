import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, ok } from '../../lib/envelope';
import { requestLocale, sayCommon } from '../../lib/messages';
import type { Config } from '../../config';
import { lookUpNumber } from '../../requests/number-lookup';
import { numberLookupQuery, numberLookupResponse } from './schemas';

/** Numbering-plan facts for the searching modal: public metadata only, nothing about the person. */
const numberRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const limits = options.config.requests.sendLimits;
  app.get(
    '/api/v1/numbers/lookup',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'What public numbering-plan data says about a number (country, region, carrier, time zones, type)',
        description:
          'Public, at most 30 lookups a minute per address. 400 "Please enter a number" when empty, "Please enter a ' +
          'valid mobile number" when it cannot be read as a phone number. A number that parses but is not valid ' +
          'answers 200 with `valid: false`. Unknown facts are null. smsAllowed says up front whether Kabari sends ' +
          "SMS to the number's country.",
        querystring: numberLookupQuery,
        response: { 200: numberLookupResponse, ...errorResponses },
      },
    },
    async (request) => {
      const lookup = await lookUpNumber(limits, request.query);
      return ok(
        lookup,
        lookup.valid ? 'ok' : sayCommon('enterValidMobile')[requestLocale(request, request.query.locale)],
      );
    },
  );
};

export default numberRoutes;
