import { createHash } from 'node:crypto';
import {
  linkTokenKey,
  newRequestToken,
  openLinkToken,
  requestTokenHash,
  sealLinkToken,
} from '../../src/requests/request-tokens';

describe('request tokens', () => {
  const secret = Buffer.from('s'.repeat(32));
  const requestId = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';

  it('are 192 random bits in 32 base64url characters, looked up by their sha256 (as tombstones hold it)', () => {
    const token = newRequestToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newRequestToken()).not.toBe(token);
    expect(requestTokenHash(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
  });

  it('seal a link’s token so that only the server’s secret opens it, for its own request only', () => {
    const token = newRequestToken();
    const key = linkTokenKey(secret);
    // A key for this purpose only: not the secret itself, the same on every call.
    expect(key).toHaveLength(32);
    expect(key.equals(secret)).toBe(false);
    expect(linkTokenKey(Buffer.from(secret)).equals(key)).toBe(true);

    const sealed = sealLinkToken(key, requestId, token);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(token);
    // A fresh nonce each time.
    expect(sealLinkToken(key, requestId, token)).not.toBe(sealed);
    expect(openLinkToken(key, requestId, sealed)).toBe(token);

    // Another secret, another request, an altered or a foreign value: nothing opens.
    expect(openLinkToken(linkTokenKey(Buffer.from('t'.repeat(32))), requestId, sealed)).toBeNull();
    expect(openLinkToken(key, '00000000-0000-4000-8000-000000000000', sealed)).toBeNull();
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    expect(openLinkToken(key, requestId, `v1.${bytes.toString('base64url')}`)).toBeNull();
    expect(openLinkToken(key, requestId, token)).toBeNull();
    expect(openLinkToken(key, requestId, 'v1.')).toBeNull();
  });
});
