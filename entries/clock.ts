/** `parlance-tms/clock`: the system clock, and a clock that moves only when told (tests). */
export { createFixedClock, systemClock } from "../adapters/system-clock.ts";
