import proxyAddr from '@fastify/proxy-addr';
import fc from 'fast-check';
import { dottedQuadOctets, trustedProxies } from '../../src/lib/trusted-proxies';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((octets) => octets.join('.'));
// From /1: config.ts refuses /0 (every address), as proxy-addr does.
const ipv4Range = fc
  .tuple(ipv4, fc.option(fc.integer({ min: 1, max: 32 }), { nil: undefined }))
  .map(([address, bits]) => (bits === undefined ? address : `${address}/${bits}`));
/** Addresses as sockets and proxies give them, and as a client might write them in X-Forwarded-For. */
const address = fc.oneof(
  ipv4,
  ipv4.map((plain) => `::ffff:${plain}`),
  fc.tuple(octet, octet, octet, octet).map((octets) => octets.map((o) => `0${o}`).join('.')),
  fc.ipV6(),
  fc.constantFrom('127.1', '0x7f.0.0.1', '256.1.1.1', '1.2.3', 'unknown', '', '::1', '127.0.0.1 '),
);

describe('trustedProxies', () => {
  it('answers as proxy-addr does for any address, whatever IPv4 addresses and ranges are trusted', () => {
    fc.assert(
      fc.property(
        fc.array(ipv4Range, { minLength: 1, maxLength: 4 }),
        fc.array(address, { maxLength: 20 }),
        (entries, addresses) => {
          const ours = trustedProxies(entries);
          const theirs = proxyAddr.compile(entries);
          for (const [hop, candidate] of addresses.entries()) expect(ours(candidate, hop)).toBe(theirs(candidate, hop));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('trusts nginx on this machine, its network, and nothing else', () => {
    const trust = trustedProxies(['127.0.0.1', '10.0.0.0/8']);
    expect(trust('127.0.0.1', 0)).toBe(true);
    expect(trust('::ffff:127.0.0.1', 0)).toBe(true);
    expect(trust('10.20.30.40', 1)).toBe(true);
    expect(trust('127.0.0.2', 0)).toBe(false);
    expect(trust('11.0.0.1', 1)).toBe(false);
    expect(trust('::1', 0)).toBe(false);
  });

  it('leaves named ranges and IPv6 to proxy-addr', () => {
    const trust = trustedProxies(['loopback', 'fd00::/8']);
    expect(trust('127.0.0.5', 0)).toBe(true);
    expect(trust('::1', 0)).toBe(true);
    expect(trust('fd12::1', 1)).toBe(true);
    expect(trust('192.0.2.1', 1)).toBe(false);
  });
});

describe('dottedQuadOctets', () => {
  it('reads four plain decimal octets only', () => {
    expect(dottedQuadOctets('192.0.2.55')).toEqual([192, 0, 2, 55]);
    expect(dottedQuadOctets('0.0.0.0')).toEqual([0, 0, 0, 0]);
    expect(dottedQuadOctets('255.255.255.255')).toEqual([255, 255, 255, 255]);
    expect(dottedQuadOctets('10.0.100.7')).toEqual([10, 0, 100, 7]);
    const others = ['256.0.0.1', '01.2.3.4', '1.2.3', '::ffff:1.2.3.4', '1.2.3.4 ', '', '1.2.3.4.5', '1..2.3'];
    for (const other of [...others, '1.2.3.', '.1.2.3', '1.2.3.00', '1.2.3.1000', '1.2.3.4x', '१.2.3.4']) {
      expect(dottedQuadOctets(other)).toBeUndefined();
    }
  });
});
