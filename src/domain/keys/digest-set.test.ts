import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { DigestSet } from './digest-set.js';

const digest = (): string => randomBytes(32).toString('hex');

describe('DigestSet', () => {
  it('agrees with a Set through adds, deletes and growth', () => {
    const set = new DigestSet();
    const reference = new Set<string>();
    const all: string[] = [];
    for (let round = 0; round < 20_000; round += 1) {
      const existing = all[Math.floor(Math.random() * all.length)];
      if (existing !== undefined && Math.random() < 0.3) {
        set.delete(existing);
        reference.delete(existing);
      } else {
        const d = digest();
        all.push(d);
        set.add(d);
        reference.add(d);
      }
    }
    assert.equal(set.size, reference.size);
    for (const d of all) assert.equal(set.has(d), reference.has(d));
    for (let i = 0; i < 1000; i += 1) assert.equal(set.has(digest()), false);
  });

  it('keeps probe runs intact when an entry in the middle of one is deleted (colliding prefixes)', () => {
    const set = new DigestSet();
    // Same first word: the same home slot, so they form one probe run.
    const run = Array.from({ length: 6 }, (_, i) => `00000400${i.toString(16).padStart(8, '0')}${'ab'.repeat(24)}`);
    for (const d of run) set.add(d);
    set.delete(run[2] ?? '');
    assert.deepEqual(
      run.map((d) => set.has(d)),
      [true, true, false, true, true, true],
    );
  });

  it('ignores anything but a hex digest; an all-zero prefix is a member like any other', () => {
    const set = new DigestSet();
    set.add('not a digest');
    assert.equal(set.size, 0);
    const zero = '0'.repeat(32) + 'f'.repeat(32);
    set.add(zero);
    assert.equal(set.has(zero), true);
    set.delete(zero);
    assert.equal(set.has(zero), false);
  });

  it('holds one million keys in 32 MiB', () => {
    const set = new DigestSet(1_000_000);
    assert.equal(set.bytes(), 32 * 1024 * 1024);
  });
});
