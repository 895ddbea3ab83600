/** Injected wherever time matters, so tests can roll windows and expiries without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
