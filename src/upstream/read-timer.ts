/**
 * One lazily re-armed Timeout for an upstream body reader. Progress only moves a deadline (no
 * timer work per chunk or event); the timer fires at the earliest deadline asked for, and the
 * owner re-checks the current deadline then: a reader that made progress meanwhile is re-armed
 * for the time left, one that did not times out.
 */
export class ReadTimer {
  private timer: NodeJS.Timeout | null = null;
  private due = 0;

  constructor(private readonly owner: { timerFired(): void }) {}

  /** Makes sure `fire` runs no later than `at` (epoch ms). An earlier pending timer is kept. */
  ensure(at: number, now = Date.now()): void {
    if (this.timer !== null) {
      if (this.due <= at) return;
      clearTimeout(this.timer);
    }
    this.due = at;
    this.timer = setTimeout(onTimeout, Math.max(1, at - now), this);
  }

  clear(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** Called by the Timeout only. */
  expired(): void {
    this.timer = null;
    this.owner.timerFired();
  }
}

function onTimeout(timer: ReadTimer): void {
  timer.expired();
}
