import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { positionSchema } from '../share/schemas';

// A malformed id is a request that is not found, in the caller's language, as in the requests routes.
export { requestIdParams as requestPositionsParams } from '../requests/schemas';

export const requestPositionsResponse = envelope(
  z.object({ items: z.array(positionSchema).describe('Oldest first: the last one is the latest position') }),
);
