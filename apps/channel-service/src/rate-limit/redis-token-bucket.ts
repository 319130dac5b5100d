import IORedis from 'ioredis';
import { withTimeout } from '../common/with-timeout';
import { RateLimitPolicy } from './rate-limiter';

/** What the shared bucket granted: some tokens, or none and how long until the next one. */
export interface Lease {
  granted: number;
  /** When nothing was granted: milliseconds until the shared bucket has a token again. */
  retryInMs: number;
}

/** Where instances take tokens from in chunks (the shared bucket of every principal). */
export interface TokenSource {
  lease(principal: string, wanted: number): Promise<Lease>;
  close(): Promise<void>;
}

/** A lease that Redis has not answered by then counts as Redis being unavailable (the request is not held up). */
export const LEASE_TIMEOUT_MS = 250;
/** Past a full refill the bucket is indistinguishable from a new one: its key expires (plus this margin). */
const BUCKET_EXPIRY_MARGIN_MS = 1_000;
const MS_PER_SECOND = 1000;

/**
 * One token bucket per principal in a Redis hash (tokens, refilled-at), refilled and taken from
 * atomically by a script that uses Redis' own clock, so instances' clocks never matter. It grants
 * up to `wanted` whole tokens, or none and the wait for the next one.
 */
const LEASE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local wanted = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local granted = math.min(math.floor(tokens), wanted)
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local wait = 0
if granted == 0 then wait = math.ceil((1 - tokens) * 1000 / rate) end
return {granted, wait}`;

export class RedisTokenBucket implements TokenSource {
  private readonly redis: IORedis;
  private readonly expiryMs: number;

  constructor(
    redisUrl: string,
    private readonly keyPrefix: string,
    private readonly policy: RateLimitPolicy,
  ) {
    // No offline queue: while Redis is unreachable a lease fails at once and the caller falls back.
    this.redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined); // the limiter logs the fallback, once per outage
    this.redis.defineCommand('qhorusLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    this.expiryMs = Math.ceil((policy.burst / policy.ratePerSecond) * MS_PER_SECOND) + BUCKET_EXPIRY_MARGIN_MS;
  }

  async lease(principal: string, wanted: number): Promise<Lease> {
    const run = (this.redis as unknown as { qhorusLease: (...args: (string | number)[]) => Promise<[number, number]> }).qhorusLease(
      `${this.keyPrefix}:rate:${principal}`,
      this.policy.ratePerSecond,
      this.policy.burst,
      wanted,
      this.expiryMs,
    );
    const [granted, retryInMs] = await withTimeout(run, LEASE_TIMEOUT_MS, 'leasing rate-limit tokens');
    return { granted: Number(granted), retryInMs: Number(retryInMs) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
