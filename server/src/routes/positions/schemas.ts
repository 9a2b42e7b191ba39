import { z } from 'zod';
import type { positions } from '../../db/schema';
import { envelope } from '../../lib/envelope';

export const positionSchema = z.object({
  id: z.number().int(),
  source: z.enum(['ip', 'gps']).describe('ip: approximate, from the DB-IP database; gps: the browser'),
  latitude: z.number(),
  longitude: z.number(),
  accuracyMeters: z.number().nullable().describe('Radius of the likely area, in metres'),
  address: z.string().nullable().describe('The nearest named place'),
  recordedAt: z.string().describe('When the position was taken (ISO 8601)'),
});

export type Position = z.infer<typeof positionSchema>;

/** A stored position as the API shows it (the same shape the live `position` event carries). */
export function toPosition(row: typeof positions.$inferSelect): Position {
  return {
    id: row.id,
    source: row.source === 'gps' ? 'gps' : 'ip',
    latitude: row.latitude,
    longitude: row.longitude,
    accuracyMeters: row.accuracyMeters,
    address: row.address,
    recordedAt: row.recordedAt.toISOString(),
  };
}

export const requestPositionsParams = z.object({
  id: z.uuid({ message: 'expected a request id' }),
});

export const requestPositionsResponse = envelope(
  z.object({ items: z.array(positionSchema).describe('Oldest first: the last one is the latest position') }),
);
