import { isDatabaseUnavailable } from '../../src/lib/database-unavailable';

/** An error as node-postgres or drizzle make it: a message, maybe a code, maybe the error it wraps. */
function failure(message: string, extra: { code?: string; cause?: unknown } = {}): Error {
  return Object.assign(new Error(message), extra);
}

describe('a query that failed because the database is out of reach', () => {
  it.each([
    ['a refused connection', failure('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['refused on every address', new AggregateError([failure('refused', { code: 'ECONNREFUSED' })], 'refused')],
    ['PostgreSQL shutting down', failure('terminating connection due to administrator command', { code: '57P01' })],
    ['PostgreSQL starting up', failure('the database system is starting up', { code: '57P03' })],
    ['a connection exception', failure('connection failure', { code: '08006' })],
    ['a connection dropped mid-query', failure('Connection terminated unexpectedly')],
    ['wrapped by drizzle', failure('Failed query: select 1', { cause: failure('x', { code: 'ECONNRESET' }) })],
  ])('%s: told apart', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', failure('duplicate key value', { code: '23505' })],
    ['a syntax error', failure('syntax error at or near "selec"', { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('%s: not the database being away', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
