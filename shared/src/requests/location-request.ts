// The requester's location requests as the API returns them (names for the generated contract's shapes).
import type { ApiData } from '../api/api-types';

/** A request in the signed-in user's history, with its delivery state and last position. */
export type LocationRequest = ApiData<'/api/v1/requests', 'get'>['items'][number];
export type RequestStatus = LocationRequest['status'];

/** A position the recipient shared; `place` is the address's parts, null on positions stored before them. */
export type Position = ApiData<'/api/v1/requests/{id}/positions', 'get'>['items'][number];

/** GET /api/v1/numbers/lookup: numbering-plan facts only; an unknown fact is null. */
export type NumberLookup = ApiData<'/api/v1/numbers/lookup', 'get'>;
