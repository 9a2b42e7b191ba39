import { isApiError } from '@kabari/shared/api/api-error';
import { shareApi } from './share-api';

// The server, answered here with the envelope it sends, as fetch resolves it.
function answer(status: number, data: unknown, message = '') {
  global.fetch = jest.fn(async () => ({
    ok: status < 400,
    status,
    statusText: '',
    json: async () => ({ status, message, data }),
  })) as unknown as typeof fetch;
}

describe('the recipient’s calls', () => {
  it('reject a refusal with the shared ApiError, its status and the server’s words', async () => {
    answer(409, null, 'You are not sharing through this link.');
    const error: unknown = await shareApi.stop('tok').catch((refusal: unknown) => refusal);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, message: 'You are not sharing through this link.' });
  });
});
