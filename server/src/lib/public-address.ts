import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// Requests to an address a user gave us (a browser's push endpoint) must reach the public internet only: never this
// machine, the operator's private network, a cloud's metadata service (169.254.169.254) or an internal name. The
// name is resolved once, every address it has is checked, and the connection is then made to the checked address
// (pinned), so a second answer from the name's DNS server cannot point the request elsewhere.

/** An address that is not on the public internet, or a name that resolves to one. */
export class NonPublicAddressError extends Error {
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`${host} is not a public internet address (${reason})`);
    this.name = 'NonPublicAddressError';
  }
}

/** A name the DNS does not know (or cannot answer for now). */
export class UnresolvableHostError extends Error {
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`${host} could not be resolved (${code})`);
    this.name = 'UnresolvableHostError';
  }
}

export interface PublicAddressPolicy {
  /**
   * Loopback addresses (127.0.0.0/8, ::1) are allowed too: for the tests' own services on this machine only. The
   * configuration refuses it in a deployment.
   */
  allowLoopback?: boolean;
}

/** The resolved address a connection is pinned to. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Whether `address` (an IP literal) is on the public internet: ipaddr.js's "unicast" range, which leaves out
 * private, loopback, link-local, carrier-grade NAT, multicast, broadcast, documentation, benchmarking and reserved
 * ranges, and the IPv6 forms that carry an IPv4 address inside (mapped, 6to4, Teredo, NAT64) are judged by it.
 */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

function checkAddress(host: string, address: string, policy: PublicAddressPolicy): void {
  const range = addressRange(address);
  if (range === 'unicast') return;
  if (range === 'loopback' && policy.allowLoopback) return;
  throw new NonPublicAddressError(host, `${address} is ${range}`);
}

/**
 * Resolves `host` (a name or an IP literal, with or without IPv6 brackets) and answers the address to connect to,
 * or throws NonPublicAddressError when any address it has is not public (a name that answers both a public and a
 * private address is refused: which one a later lookup gives is the attacker's choice), and UnresolvableHostError
 * when it has none.
 */
export async function resolvePublicAddress(
  host: string,
  policy: PublicAddressPolicy = {},
  lookup: Lookup = systemLookup,
): Promise<PinnedAddress> {
  const plain = host.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(plain)) {
    checkAddress(host, plain, policy);
    return { address: plain, family: net.isIPv6(plain) ? 6 : 4 };
  }
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await lookup(plain);
  } catch (error) {
    throw new UnresolvableHostError(host, (error as NodeJS.ErrnoException).code ?? 'ENOTFOUND');
  }
  if (answers.length === 0) throw new UnresolvableHostError(host, 'ENODATA');
  for (const answer of answers) checkAddress(host, answer.address, policy);
  const [first] = answers as [{ address: string; family: number }];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for net/tls/https that always answers the pinned address, whatever name it is asked. */
export function pinnedLookup(pinned: PinnedAddress): net.LookupFunction {
  return (_host, options, callback) => {
    if (options.all) {
      (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}
