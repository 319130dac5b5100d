import ipaddr from 'ipaddr.js';

/** QHORUS_WEBHOOK_ALLOWED_HOSTS parsed: hosts allowed by name, and address ranges. */
export interface WebhookAllowList {
  /** Lower-case host names (or IP literals as written) allowed whatever they resolve to. */
  readonly hosts: ReadonlySet<string>;
  readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const EMPTY_ALLOW_LIST: WebhookAllowList = { hosts: new Set(), ranges: [] };

/**
 * Parses the comma list: each entry a CIDR (`10.0.0.0/8`, `fd00::/8`), an IP address (its own
 * /32 or /128) or a host name. Throws naming every entry it cannot read.
 */
export function parseWebhookAllowList(value: string): WebhookAllowList {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const bad: string[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    try {
      if (entry.includes('/')) ranges.push(normalisedRange(ipaddr.parseCIDR(entry)));
      else if (ipaddr.isValid(entry)) {
        const address = ipaddr.process(entry);
        ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
        hosts.add(entry);
      } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)) hosts.add(entry);
      else bad.push(raw.trim());
    } catch {
      bad.push(raw.trim());
    }
  }
  if (bad.length > 0) throw new Error(`must be a comma list of host names, IP addresses or CIDRs (bad: ${bad.join(', ')})`);
  return { hosts, ranges };
}

/** An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) as the IPv4 range it is. */
function normalisedRange([address, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}
