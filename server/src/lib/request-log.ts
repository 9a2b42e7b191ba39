import ipaddr from 'ipaddr.js';

// Path segments that are keys in their own right: whoever reads them can act on the link or the sign-up.
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^(\/api\/v1\/share\/links\/)[^/]+/, '$1[token]'],
  [/^(\/api\/v1\/personnal\/registerQuery\/)[^/]+/, '$1[id]'],
];

/**
 * The URL as the request log shows it: the path only, never the query string or fragment (a consent link's token,
 * a reset code, a phone number being checked all travel there), and a share token or sign-up id in the path
 * replaced by its name.
 */
export function loggableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return SECRET_SEGMENTS.reduce((shown, [pattern, replacement]) => shown.replace(pattern, replacement), path);
}

/**
 * The client's network rather than its address: an IPv4 address cut to its /24, an IPv6 address to its /48. Enough
 * to tell networks apart when investigating a fault or an attack; not enough to single out one subscriber's line.
 */
export function clientNetwork(address: string | undefined): string | undefined {
  if (!address) return address;
  if (!ipaddr.isValid(address)) return 'unknown';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0`;
  }
  const parts = (parsed as ipaddr.IPv6).parts;
  return new ipaddr.IPv6([parts[0]!, parts[1]!, parts[2]!, 0, 0, 0, 0, 0]).toString();
}
