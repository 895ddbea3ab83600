/** Injected wherever time matters, so tests can roll windows and expiries without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time in epoch milliseconds; the system clock's without making a Date. */
export function nowMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime();
}
