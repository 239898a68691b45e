import type { Clock } from "../core/ports.ts";

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told: for tests that must not sleep. */
export function createFixedClock(start: Date | string | number = "2026-01-01T00:00:00.000Z") {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    set(at: Date | string | number) {
      t = new Date(at).getTime();
    },
  } satisfies Clock & Record<string, unknown>;
}
