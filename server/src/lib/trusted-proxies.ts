import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/**
 * A plain IPv4 address (four decimal octets without leading zeros, which ipaddr.js would read as octal: the form a
 * socket gives) as one unsigned 32-bit number; else undefined. Read character by character: every request asks it
 * twice, and a regular expression with its captures cost several times more.
 */
export function dottedQuadValue(address: string): number | undefined {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code === 46) {
      if (digits === 0 || dots === 3) return undefined;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots += 1;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && octet === 0) return undefined;
      octet = octet * 10 + (code - 48);
      digits += 1;
      if (octet > 255) return undefined;
    } else {
      return undefined;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : undefined;
}

/** A plain IPv4 address's four octets (see dottedQuadValue); else undefined. */
export function dottedQuadOctets(address: string): [number, number, number, number] | undefined {
  const value = dottedQuadValue(address);
  if (value === undefined) return undefined;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
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
  if (address.kind() !== 'ipv4' || dottedQuadValue(entry.split('/', 1)[0]!) === undefined) return undefined;
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
    const value = dottedQuadValue(address);
    if (value === undefined) return general(address, hop);
    return ranges.some((range) => (value & range.mask) >>> 0 === range.base);
  };
}
