import { EMPTY_ALLOW_LIST, parseWebhookAllowList } from '../../src/config/webhook-allowed-hosts';
import { addressProblem, checkTarget, HostResolver, WebhookTargetRefused } from '../../src/webhooks/url-guard';

/** A resolver that answers from a table (no DNS in unit tests). */
const resolverOf =
  (table: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhook SSRF guard', () => {
  // [url, refused?, what the refusal names]: every IP spelling WHATWG URL accepts reaches the same check.
  const literalCases: [string, string | null][] = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'], // decimal
    ['http://0177.0.0.1/', 'loopback'], // octal
    ['http://0x7f.0.0.1/', 'loopback'], // hex
    ['http://0x7f000001/', 'loopback'],
    ['http://017700000001/', 'loopback'], // octal, whole
    ['http://10.0.0.5/', 'private'],
    ['http://172.16.3.4/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'linkLocal'], // cloud metadata
    ['http://100.100.100.200/', 'carrierGradeNat'], // CGNAT (also a cloud's metadata address)
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[fe80::1]/', 'linkLocal'],
    ['http://[fd00:ec2::254]/', 'uniqueLocal'], // AWS metadata over IPv6
    ['http://[ff02::1]/', 'multicast'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'], // IPv4-mapped
    ['http://[::ffff:a9fe:a9fe]/', 'linkLocal'], // mapped 169.254.169.254 in hex
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'rfc6052'], // NAT64 of the metadata address
    ['http://[2002:7f00:1::]/', '6to4'],
    ['http://93.184.215.14/', null],
    ['https://[2606:4700:4700::1111]/', null],
    ['http://[::ffff:93.184.215.14]/', null], // mapped public: the IPv4 it is
  ];

  it.each(literalCases)('%s → %s', async (url, refusal) => {
    const check = checkTarget(url, EMPTY_ALLOW_LIST, resolverOf({}));
    if (refusal === null) await expect(check).resolves.toMatchObject({ url: new URL(url) });
    else await expect(check).rejects.toThrow(new RegExp(`is a ${refusal} address`));
  });

  it('connects to the mapped address as the IPv4 address it is', async () => {
    await expect(checkTarget('http://[::ffff:93.184.215.14]/', EMPTY_ALLOW_LIST)).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
  });

  it('resolves names and refuses a host any of whose addresses is refused', async () => {
    const resolve = resolverOf({ 'public.test': ['93.184.215.14'], 'mixed.test': ['93.184.215.14', '10.0.0.1'], 'meta.test': ['169.254.169.254'] });
    await expect(checkTarget('https://public.test/x', EMPTY_ALLOW_LIST, resolve)).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
    await expect(checkTarget('https://mixed.test/x', EMPTY_ALLOW_LIST, resolve)).rejects.toThrow(/10\.0\.0\.1 is a private address/);
    await expect(checkTarget('https://meta.test/x', EMPTY_ALLOW_LIST, resolve)).rejects.toThrow(/169\.254\.169\.254 is a linkLocal address/);
    await expect(checkTarget('https://gone.test/x', EMPTY_ALLOW_LIST, resolve)).rejects.toThrow(/host 'gone\.test' does not resolve \(ENOTFOUND\)/);
  });

  it('refuses other schemes and credentials, naming the URL', async () => {
    for (const [url, why] of [
      ['file:///etc/passwd', /file:\/\/\/etc\/passwd' must be http or https, not file/],
      ['gopher://x.test/', /must be http or https, not gopher/],
      ['http://user:pw@x.test/', /must not carry credentials/],
      ['://', /not a valid URL/],
    ] as const) {
      await expect(checkTarget(url, EMPTY_ALLOW_LIST, resolverOf({}))).rejects.toThrow(why);
    }
    await expect(checkTarget('ftp://x.test/', EMPTY_ALLOW_LIST)).rejects.toBeInstanceOf(WebhookTargetRefused);
  });

  it('QHORUS_WEBHOOK_ALLOWED_HOSTS lets named hosts, addresses and CIDRs through, and nothing else', async () => {
    const allow = parseWebhookAllowList('127.0.0.1, hooks.internal ,10.20.0.0/16,fd00::/8,::ffff:192.168.0.0/112');
    const resolve = resolverOf({ 'hooks.internal': ['10.99.0.1'], 'other.internal': ['10.99.0.1'] });
    await expect(checkTarget('http://127.0.0.1:8080/', allow)).resolves.toBeDefined();
    await expect(checkTarget('http://2130706433/', allow)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkTarget('http://[::ffff:127.0.0.1]/', allow)).resolves.toBeDefined();
    await expect(checkTarget('http://127.0.0.2/', allow)).rejects.toThrow(/loopback/);
    await expect(checkTarget('http://HOOKS.internal/', allow, resolve)).resolves.toMatchObject({ address: '10.99.0.1' });
    await expect(checkTarget('http://other.internal/', allow, resolve)).rejects.toThrow(/private/);
    await expect(checkTarget('http://10.20.5.5/', allow)).resolves.toBeDefined();
    await expect(checkTarget('http://10.21.5.5/', allow)).rejects.toThrow(/private/);
    await expect(checkTarget('http://[fd12::1]/', allow)).resolves.toBeDefined();
    await expect(checkTarget('http://192.168.7.7/', allow)).resolves.toBeDefined(); // the mapped CIDR as the IPv4 range it is
    expect(addressProblem('192.168.8.7', allow)).toBeNull();
  });

  it.each(['10.0.0.0/33', 'not a host!', '::1/129', '1.2.3.4/x'])('refuses the allow list entry %s', (entry) => {
    expect(() => parseWebhookAllowList(`127.0.0.1,${entry}`)).toThrow(entry);
  });
});
