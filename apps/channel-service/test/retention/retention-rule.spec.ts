import fc from 'fast-check';
import { KeptVersion, MS_PER_DAY, nextAgeDueAt, nextRetentionStep, RetentionPolicy } from '../../src/retention/retention-rule';

const T0 = Date.UTC(2026, 0, 1);

/** A channel as the model keeps it: each message's post time, the kept versions, the slot's watermark and the base. */
interface Model {
  postedAt: number[]; // index seq - 1
  firstSeq: number;
  versions: KeptVersion[];
  slotWatermark: number;
  nextVersion: number;
  base: number | null;
  now: number;
}

type Op =
  | { kind: 'post'; count: number; gapMs: number }
  | { kind: 'commit'; fraction: number }
  | { kind: 'pass'; batch: number; advanceDays: number }
  | { kind: 'redact'; fraction: number };

const HISTORY_KEEP = 4;

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('post' as const), count: fc.integer({ min: 1, max: 12 }), gapMs: fc.integer({ min: 0, max: MS_PER_DAY }) }),
  fc.record({ kind: fc.constant('commit' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('pass' as const), batch: fc.integer({ min: 1, max: 20 }), advanceDays: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('redact' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

const policy: fc.Arbitrary<RetentionPolicy> = fc.record({
  maxAgeDays: fc.option(fc.integer({ min: 1, max: 4 })),
  maxMessages: fc.option(fc.integer({ min: 1, max: 15 })),
});

const lastSeq = (m: Model) => m.postedAt.length;
const state = (m: Model) => ({ firstSeq: m.firstSeq, lastSeq: lastSeq(m), versions: m.versions });
const watermarkOf = (m: Model, version: number) => m.versions.find((v) => v.version === version)?.coversThroughSeq;

function apply(m: Model, o: Op, p: RetentionPolicy): void {
  switch (o.kind) {
    case 'post':
      for (let i = 0; i < o.count; i++) m.postedAt.push((m.now += o.gapMs));
      return;
    case 'commit': {
      if (lastSeq(m) <= m.slotWatermark) return;
      const through = m.slotWatermark + Math.max(1, Math.round(o.fraction * (lastSeq(m) - m.slotWatermark)));
      m.versions.push({ version: ++m.nextVersion, coversThroughSeq: through, coveredAt: new Date(m.postedAt[through - 1]) });
      m.slotWatermark = through;
      // History pruning keeps the newest HISTORY_KEEP versions and never the base.
      const newest = m.versions.map((v) => v.version).sort((a, b) => b - a).slice(0, HISTORY_KEEP);
      m.versions = m.versions.filter((v) => newest.includes(v.version) || v.version === m.base);
      return;
    }
    case 'pass': {
      m.now += o.advanceDays * MS_PER_DAY;
      for (let step = nextRetentionStep(state(m), p, new Date(m.now), o.batch); step; step = nextRetentionStep(state(m), p, new Date(m.now), o.batch)) {
        // Never an uncovered message: the step ends on a kept version's watermark, at or below the slot's.
        expect(step.removeThroughSeq).toBeLessThanOrEqual(m.slotWatermark);
        expect(watermarkOf(m, step.baseVersion)).toBe(step.removeThroughSeq);
        expect(step.removeThroughSeq).toBeGreaterThanOrEqual(m.firstSeq);
        // Every removed message is past a bound.
        for (let seq = m.firstSeq; seq <= step.removeThroughSeq; seq++) {
          const pastCount = p.maxMessages !== null && seq <= lastSeq(m) - p.maxMessages;
          const pastAge = p.maxAgeDays !== null && m.postedAt[seq - 1] <= m.now - p.maxAgeDays * MS_PER_DAY;
          expect(pastCount || pastAge).toBe(true);
        }
        m.firstSeq = step.removeThroughSeq + 1;
        m.base = step.baseVersion;
      }
      return;
    }
    case 'redact': {
      if (m.firstSeq > lastSeq(m)) return;
      const seq = m.firstSeq + Math.floor(o.fraction * (lastSeq(m) - m.firstSeq));
      // The rewind target: the newest kept version before the seq, never older than the base.
      const before = m.versions.filter((v) => v.coversThroughSeq < seq && v.coversThroughSeq >= m.firstSeq - 1);
      if (m.firstSeq > 1) expect(before.length).toBeGreaterThan(0); // a redaction after retention finds its base
      const target = before.length > 0 ? before.reduce((a, b) => (b.version > a.version ? b : a)) : null;
      m.versions = m.versions.filter((v) => v.coversThroughSeq < seq);
      m.slotWatermark = target?.coversThroughSeq ?? 0;
      return;
    }
  }
}

describe('retention rule', () => {
  it('never removes an uncovered message, keeps firstSeq = base watermark + 1, and a later redaction always finds its base', () => {
    fc.assert(
      fc.property(policy, fc.array(op, { minLength: 1, maxLength: 60 }), (p, ops) => {
        const m: Model = { postedAt: [], firstSeq: 1, versions: [], slotWatermark: 0, nextVersion: 0, base: null, now: T0 };
        for (const o of ops) {
          apply(m, o, p);
          if (m.base !== null) {
            expect(m.versions.some((v) => v.version === m.base)).toBe(true);
            expect(m.firstSeq).toBe(watermarkOf(m, m.base)! + 1);
          } else {
            expect(m.firstSeq).toBe(1);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('removes through the furthest watermark within the batch, or the nearest beyond it when none lies within', () => {
    const v = (version: number, coversThroughSeq: number): KeptVersion => ({ version, coversThroughSeq, coveredAt: null });
    const versions = [v(1, 10), v(2, 20), v(3, 50)];
    const keepTen = { maxAgeDays: null, maxMessages: 10 };
    expect(nextRetentionStep({ firstSeq: 1, lastSeq: 60, versions }, keepTen, new Date(T0), 25)).toEqual({ removeThroughSeq: 20, baseVersion: 2 });
    expect(nextRetentionStep({ firstSeq: 21, lastSeq: 60, versions }, keepTen, new Date(T0), 5)).toEqual({ removeThroughSeq: 50, baseVersion: 3 });
    expect(nextRetentionStep({ firstSeq: 51, lastSeq: 60, versions }, keepTen, new Date(T0), 5)).toBeNull();
    expect(nextRetentionStep({ firstSeq: 1, lastSeq: 60, versions }, { maxAgeDays: null, maxMessages: null }, new Date(T0), 5)).toBeNull();
  });

  it('an age bound lets a version go once the message at its watermark is old enough, and says when that is', () => {
    const posted = new Date(T0);
    const versions = [{ version: 1, coversThroughSeq: 5, coveredAt: posted }];
    const week = { maxAgeDays: 7, maxMessages: null };
    const st = { firstSeq: 1, lastSeq: 9, versions };
    expect(nextRetentionStep(st, week, new Date(T0 + 7 * MS_PER_DAY - 1), 100)).toBeNull();
    expect(nextRetentionStep(st, week, new Date(T0 + 7 * MS_PER_DAY), 100)).toEqual({ removeThroughSeq: 5, baseVersion: 1 });
    expect(nextAgeDueAt(st, week)).toEqual(new Date(T0 + 7 * MS_PER_DAY));
    expect(nextAgeDueAt({ ...st, firstSeq: 6 }, week)).toBeNull();
  });
});
