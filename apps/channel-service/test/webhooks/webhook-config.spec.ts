import { loadConfig } from '../../src/config/app-config';

describe('webhook knobs', () => {
  it('default to DESIGN §11: a 10 s attempt, retries from 5 s to 10 h, a hook disabled after a day of failing', () => {
    const c = loadConfig({});
    expect([c.QHORUS_WEBHOOK_TIMEOUT_MS, c.QHORUS_WEBHOOK_BACKOFF_MIN_MS, c.QHORUS_WEBHOOK_BACKOFF_MAX_MS, c.QHORUS_WEBHOOK_GIVE_UP_MS]).toEqual([
      10_000,
      5_000,
      10 * 3600_000,
      24 * 3600_000,
    ]);
    expect(c.QHORUS_WEBHOOK_ALLOWED_HOSTS).toBe(''); // nothing private allowed unless listed
  });

  it('refuses an allow list it cannot read, naming the entry', () => {
    expect(() => loadConfig({ QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,10.0.0.0/40' })).toThrow(/QHORUS_WEBHOOK_ALLOWED_HOSTS .*bad: 10\.0\.0\.0\/40/);
    expect(loadConfig({ QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, hooks.internal' }).QHORUS_WEBHOOK_ALLOWED_HOSTS).toBe('127.0.0.1, hooks.internal');
  });

  it('refuses a lease that a delivery in flight could outlive, and a backoff range upside down', () => {
    expect(() => loadConfig({ QHORUS_WEBHOOK_LEASE_MS: '5000', QHORUS_WEBHOOK_TIMEOUT_MS: '5000' })).toThrow(/QHORUS_WEBHOOK_LEASE_MS must be > QHORUS_WEBHOOK_TIMEOUT_MS/);
    expect(() => loadConfig({ QHORUS_WEBHOOK_BACKOFF_MIN_MS: '5000', QHORUS_WEBHOOK_BACKOFF_MAX_MS: '1000' })).toThrow(/QHORUS_WEBHOOK_BACKOFF_MAX_MS must be ≥/);
  });
});
