import {
  addressRange,
  NonPublicAddressError,
  pinnedLookup,
  resolvePublicAddress,
  UnresolvableHostError,
} from '../../src/lib/public-address';

// What an address a user gave may be before Kabari's server connects to it: on the public internet only.

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('public addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::5', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', async (address, range) => {
    expect(addressRange(address)).toBe(range);
    await expect(resolvePublicAddress(address.includes(':') ? `[${address}]` : address)).rejects.toThrow(
      NonPublicAddressError,
    );
  });

  it.each(['64:ff9b::a00:1', '2002:a00:1::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'])(
    'refuses %s, an IPv6 form that carries an IPv4 address',
    async (address) => {
      await expect(resolvePublicAddress(`[${address}]`)).rejects.toThrow(NonPublicAddressError);
    },
  );

  it('accepts public addresses, as literals and as names, and answers the one to connect to', async () => {
    await expect(resolvePublicAddress('8.8.8.8')).resolves.toEqual({ address: '8.8.8.8', family: 4 });
    await expect(resolvePublicAddress('[2001:4860:4860::8888]')).resolves.toEqual({
      address: '2001:4860:4860::8888',
      family: 6,
    });
    await expect(
      resolvePublicAddress('fcm.googleapis.com', {}, answers('142.250.4.95', '2404:6800:4003:c00::5f')),
    ).resolves.toEqual({ address: '142.250.4.95', family: 4 });
  });

  it('refuses a name with any address that is not public, this machine’s own names included', async () => {
    await expect(resolvePublicAddress('localhost')).rejects.toThrow(NonPublicAddressError);
    await expect(resolvePublicAddress('metadata.internal', {}, answers('169.254.169.254'))).rejects.toThrow(
      'metadata.internal is not a public internet address (169.254.169.254 is linkLocal)',
    );
    // Public first and private second: a later lookup could give either.
    await expect(resolvePublicAddress('rebind.example', {}, answers('93.184.216.34', '10.0.0.7'))).rejects.toThrow(
      NonPublicAddressError,
    );
  });

  it('allows loopback only when asked, and never another private range', async () => {
    const tests = { allowLoopback: true };
    await expect(resolvePublicAddress('127.0.0.1', tests)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolvePublicAddress('[::1]', tests)).resolves.toEqual({ address: '::1', family: 6 });
    await expect(resolvePublicAddress('10.0.0.1', tests)).rejects.toThrow(NonPublicAddressError);
    await expect(resolvePublicAddress('169.254.169.254', tests)).rejects.toThrow(NonPublicAddressError);
  });

  it('says when a name cannot be resolved', async () => {
    const unknown = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(resolvePublicAddress('push.nowhere.example', {}, unknown)).rejects.toThrow(UnresolvableHostError);
    await expect(resolvePublicAddress('empty.example', {}, answers())).rejects.toThrow(UnresolvableHostError);
  });

  it('pins a connection to the checked address, whatever name it is asked for', async () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 });
    const one = await new Promise((resolve) =>
      lookup('elsewhere.example', {}, (error, address, family) => resolve({ error, address, family })),
    );
    expect(one).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    const all = await new Promise((resolve) =>
      lookup('elsewhere.example', { all: true }, (error, addresses) => resolve({ error, addresses })),
    );
    expect(all).toEqual({ error: null, addresses: [{ address: '93.184.216.34', family: 4 }] });
  });
});
