import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { YOUNG_SEMI_SPACE_MB, holdYoungGeneration, releaseYoungGeneration } from './heap-tuning.js';

const MB = 1024 * 1024;
const youngGenerationBytes = (): number =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/** Allocates objects that survive a few scavenges (V8 grows the young generation for those), yielding as a server does. */
async function allocate(rounds: number): Promise<void> {
  let kept: object[] = [];
  for (let i = 0; i < rounds * 5000; i++) {
    kept.push({ i, text: `item ${i}` });
    if (kept.length > 40_000) kept = [];
    if (i % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A script that allocates as above and prints the young generation's size, run with the given node flags. */
const childScript = `
import { getHeapSpaceStatistics } from 'node:v8';
const { releaseYoungGeneration } = await import(${JSON.stringify(new URL('./heap-tuning.js', import.meta.url).href)});
releaseYoungGeneration();
let kept = [];
for (let i = 0; i < 2_000_000; i++) {
  kept.push({ i, text: 'item ' + i });
  if (kept.length > 40000) kept = [];
  if (i % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(String(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size));
`;

describe('heap tuning: the young generation', () => {
  it('stays at its initial size while held, then grows under load up to the bound and no further', async () => {
    holdYoungGeneration();
    await allocate(200);
    const whileHeld = youngGenerationBytes();
    releaseYoungGeneration();
    await allocate(400);
    const underLoad = youngGenerationBytes();
    assert.ok(whileHeld < 2 * YOUNG_SEMI_SPACE_MB * MB, `held: ${whileHeld}`);
    assert.ok(underLoad > whileHeld, `grew: ${whileHeld} -> ${underLoad}`);
    assert.ok(underLoad <= 2 * YOUNG_SEMI_SPACE_MB * MB, `bounded: ${underLoad}`);
  });

  it("leaves the launch's own semi-space flag alone", () => {
    const size = Number(
      execFileSync(process.execPath, ['--max-semi-space-size=16', '--input-type=module', '-e', childScript], {
        encoding: 'utf8',
      }),
    );
    assert.ok(size > 2 * YOUNG_SEMI_SPACE_MB * MB, `the flag's 16 MB semi-spaces: ${size}`);
  });
});
