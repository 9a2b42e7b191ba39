import { ApiError } from '@kabari/shared/api/api-error';
import { newSignUpAttempt } from './sign-up-attempt';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Sends one submission of `attempt`, answered by `outcome`; resolves with the id it was sent under. */
async function submit(attempt: ReturnType<typeof newSignUpAttempt>, outcome: 'ok' | Error): Promise<string> {
  let sentUnder = '';
  await attempt
    .send(async (attemptId) => {
      sentUnder = attemptId;
      if (outcome !== 'ok') throw outcome;
      return { registerId: 'reg-1' };
    })
    .catch(() => undefined);
  return sentUnder;
}

describe('a sign-up attempt', () => {
  it('sends a submission that got no answer again under the same id', async () => {
    const attempt = newSignUpAttempt();
    const first = await submit(attempt, new ApiError('Network Error'));
    expect(first).toMatch(uuid);
    expect(await submit(attempt, new ApiError('timeout of 20000ms exceeded'))).toBe(first);
    expect(await submit(attempt, 'ok')).toBe(first);
  });

  it('is a new try, with a new id, once the server has answered, whatever it said', async () => {
    const attempt = newSignUpAttempt();
    const first = await submit(attempt, 'ok');
    const second = await submit(attempt, new ApiError('This email address is already in use', 409));
    const third = await submit(attempt, new ApiError('Too many sign-up attempts', 429));
    expect(new Set([first, second, third, await submit(attempt, 'ok')]).size).toBe(4);
  });

  it('passes the answer and the failure through unchanged', async () => {
    const attempt = newSignUpAttempt();
    await expect(attempt.send(async () => 'answer')).resolves.toBe('answer');
    const refused = new ApiError('Declined', 400);
    await expect(attempt.send(async () => Promise.reject(refused))).rejects.toBe(refused);
  });

  it('makes a version 4 UUID where the page is not a secure context (no crypto.randomUUID)', async () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set([await submit(newSignUpAttempt(), 'ok'), await submit(newSignUpAttempt(), 'ok')]);
      expect(ids.size).toBe(2);
      for (const id of ids) expect(id).toMatch(uuid);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
