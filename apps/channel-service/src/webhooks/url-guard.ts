import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import { WebhookAllowList } from '../config/webhook-allowed-hosts';

/** The one address range a webhook may reach without being allowed: public unicast (ipaddr.js names every other range). */
const PUBLIC_RANGE = 'unicast';

/** Why a URL or an address is refused (the message names the URL and the reason). */
export class WebhookTargetRefused extends Error {}

/** Where one delivery connects: the address that was checked, and its family for the socket. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (dns.lookup: the resolver the OS uses). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The URL's shape alone: http or https, no credentials. WHATWG URL parsing already turns every
 * IPv4 spelling (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`) into
 * dotted form, so the address checks below see the address a socket would reach.
 */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetRefused(`url '${raw}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetRefused(`url '${raw}' must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) throw new WebhookTargetRefused(`url '${raw}' must not carry credentials`);
  return url;
}

/** The URL's host as an address when it is an IP literal (brackets off), else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
}

/**
 * Why this address may not be reached, or null when it may: public unicast, or within an
 * allowed range. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */
export function addressProblem(address: string, allow: WebhookAllowList): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `'${address}' is not an IP address`;
  }
  if (allow.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits))) return null;
  const range = parsed.range();
  return range === PUBLIC_RANGE ? null : `${parsed.toString()} is a ${range} address (not allowed by QHORUS_WEBHOOK_ALLOWED_HOSTS)`;
}

/**
 * Checks a URL and resolves its host now (at registration, and again at every delivery): every
 * address the host has must be allowed, and the delivery connects to the first of them (never
 * resolving again, so DNS cannot answer differently in between). A host named in the allow list
 * passes whatever it resolves to.
 */
export async function checkTarget(raw: string, allow: WebhookAllowList, resolve: HostResolver = systemResolver): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw);
  const literal = literalAddress(url);
  const named = allow.hosts.has(url.hostname.toLowerCase());
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: ipaddr.process(literal).toString(), family: ipaddr.process(literal).kind() === 'ipv4' ? 4 : 6 }];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch (e) {
      throw new WebhookTargetRefused(`url '${raw}': host '${url.hostname}' does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (addresses.length === 0) throw new WebhookTargetRefused(`url '${raw}': host '${url.hostname}' has no address`);
  }
  if (!named) {
    for (const { address } of addresses) {
      const problem = addressProblem(address, allow);
      if (problem) throw new WebhookTargetRefused(`url '${raw}' is refused: ${problem}`);
    }
  }
  const first = addresses[0];
  const address = ipaddr.process(first.address).toString();
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv4' ? 4 : 6 };
}
