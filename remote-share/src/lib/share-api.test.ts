import { isApiError } from '@kabari/shared/api/api-error';
import { fakeApi } from '../../../jest/fake-api';
import { shareApi } from './share-api';

describe('the recipient’s calls', () => {
  it('reject a refusal with the shared ApiError, its status and the server’s words', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', fakeApi.fail(409, 'You are not sharing through this link.'));
    const error: unknown = await shareApi.stop('tok').catch((refusal: unknown) => refusal);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, message: 'You are not sharing through this link.' });
  });
});
