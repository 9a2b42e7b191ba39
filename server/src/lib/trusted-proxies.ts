import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

// Four decimal octets without leading zeros (which ipaddr.js would read as octal): the form a socket gives.
const DOTTED_QUAD = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/** A plain IPv4 address's four octets, read without ipaddr.js (which tries every notation first); else undefined. */
export function dottedQuadOctets(address: string): [number, number, number, number] | undefined {
  const match = DOTTED_QUAD.exec(address);
  if (!match) return undefined;
  const octets = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])] as const;
  return octets.every((octet) => octet <= 255) ? [...octets] : undefined;
}

/** An IPv4 range as a number and its mask, for one comparison per address. */
interface Ipv4Range {
  base: number;
  mask: number;
}

function ipv4Range(entry: string): Ipv4Range | undefined {
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), 32];
  } catch {
    return undefined;
  }
  const [address, bits] = parsed;
  if (address.kind() !== 'ipv4' || !dottedQuadOctets(entry.split('/', 1)[0]!)) return undefined;
  // 1 to 32 bits: proxy-addr, which trustedProxies compiles first, refuses a /0 range.
  const mask = (~0 << (32 - bits)) >>> 0;
  return { base: (numberOf(address.toByteArray()) & mask) >>> 0, mask };
}

function numberOf(octets: number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/**
 * Fastify's trustProxy for TRUST_PROXY's proxies: whether the peer at `address` (`hop` steps from the server) is one
 * of them. Every request asks it twice (for the socket's address, then for the address the proxy forwarded), and
 * proxy-addr, which Fastify would use, parses the address with ipaddr.js twice for each: about 4 % of a small API
 * answer's CPU time. When every entry is a plain IPv4 address or range, a plain IPv4 address is compared as a number
 * here; any other form (IPv6, an IPv4-mapped address, an unusual notation) still goes to proxy-addr, which answers
 * everything else as well.
 */
export function trustedProxies(entries: string[]): (address: string, hop: number) => boolean {
  const general = proxyAddr.compile(entries);
  const ranges = entries.map(ipv4Range);
  if (!ranges.every((range) => range !== undefined)) return general;
  return (address, hop) => {
    const octets = dottedQuadOctets(address);
    if (!octets) return general(address, hop);
    const value = numberOf(octets);
    return ranges.some((range) => (value & range.mask) >>> 0 === range.base);
  };
}
