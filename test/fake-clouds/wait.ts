import { setTimeout as sleep } from 'node:timers/promises';

/** Polls until `condition` holds (for background work the tests wait on); fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, label: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await sleep(10);
  }
}
