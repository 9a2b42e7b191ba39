import { z } from 'zod';
import { DEVICE_TYPES } from '../../db/column-values';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { webAddress } from '../../lib/web-address';

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

// The visitor device report. Only what the browser says about itself: the IP address is not stored.
export const visitorReportBody = z.object({
  visitorId: z.string().trim().min(1, 'visitorId is required').max(128),
  userAgent: z.string().trim().min(1, 'userAgent is required').max(1024),
  osName: text(128),
  osVersion: text(128),
  browserName: text(128),
  browserVersion: text(128),
  deviceType: z.enum(DEVICE_TYPES, { message: 'deviceType must be mobile, tablet or desktop' }),
  deviceBrand: text(128),
  deviceModel: text(128),
  pageUrl: text(2048).refine((value) => value === null || webAddress(value) !== null, inputMessage('locate.pageUrl')),
  referrerUrl: text(2048),
  source: text(256).describe('The source query parameter of the landing page: a short marker, else not kept'),
  visitTime: z.iso.datetime({ offset: true, message: 'visitTime must be an ISO timestamp' }),
});

export const visitorReportResponse = envelope(z.object({ recorded: z.literal(true) }));

export const countryResponse = envelope(
  z.object({
    countryCode: z.string().length(2).nullable(),
    attribution: z.object({ text: z.string(), url: z.string(), license: z.string() }),
  }),
);
