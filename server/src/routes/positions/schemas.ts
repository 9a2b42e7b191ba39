import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { placeSchema } from '../share/schemas';

export const positionSchema = z.object({
  id: z.number().int(),
  source: z.enum(['ip', 'gps']).describe('ip: approximate, from the DB-IP database; gps: the browser'),
  latitude: z.number(),
  longitude: z.number(),
  accuracyMeters: z.number().nullable().describe('Radius of the likely area, in metres'),
  address: z.string().nullable().describe('The nearest named place, in English'),
  place: placeSchema.nullable().optional(),
  recordedAt: z.string().describe('When the position was taken (ISO 8601)'),
});

export type Position = z.infer<typeof positionSchema>;

export const requestPositionsParams = z.object({
  id: z.uuid({ message: 'expected a request id' }),
});

export const requestPositionsResponse = envelope(
  z.object({ items: z.array(positionSchema).describe('Oldest first: the last one is the latest position') }),
);
