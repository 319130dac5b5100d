import { isIP } from 'node:net';

/** proxy-addr's named ranges, accepted in QHORUS_TRUST_PROXY next to addresses and CIDRs. */
const TRUST_PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** QHORUS_TRUST_PROXY as Fastify's `trustProxy` takes it. */
export function trustProxySetting(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

export function trustProxyError(value: string): string | null {
  const setting = trustProxySetting(value);
  if (!Array.isArray(setting)) return null;
  const bad = setting.filter((entry) => {
    if (TRUST_PROXY_PRESETS.has(entry)) return false;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  return bad.length === 0 ? null : `must be true, false, a hop count, or addresses/CIDRs/${[...TRUST_PROXY_PRESETS].join('/')}, comma-separated (bad: ${bad.join(', ')})`;
}
