/**
 * Counts the requests the server begins to answer: whether traffic is light enough for a pause of
 * the event loop (a full garbage collection) to keep few requests waiting.
 */
export interface Traffic {
  /** Called as each request arrives. */
  note(): void;
  /**
   * True when fewer than `requests` arrived over the last `ms`, counted between calls made about
   * every `every` ms (the first calls answer false). Requests are counted as they are taken in,
   * and none is while the event loop is held (an import's commit, a collection): so a window in
   * which two calls came more than twice `every` apart does not count as light, however few
   * requests it saw.
   */
  lighterThan(requests: number, ms: number, every: number): boolean;
  /**
   * True when fewer than `requests` (at most ARRIVALS_KEPT) arrived over the last `ms`, told in one
   * call from the arrival times of the latest requests: for a pause decided at once (the
   * collection after a large push's answer), where `lighterThan` needs looks on time.
   */
  arrivedFewerThan(requests: number, ms: number): boolean;
}

/** Arrival times kept for `arrivedFewerThan`. */
export const ARRIVALS_KEPT = 256;

/** Earlier calls kept: enough for a window of several calls. */
const LOOKS_KEPT = 32;

export function createTraffic(now: () => number = () => performance.now()): Traffic {
  let arrived = 0;
  const looks: { at: number; arrived: number }[] = [];
  const arrivals = new Float64Array(ARRIVALS_KEPT);
  return {
    note() {
      arrivals[arrived % ARRIVALS_KEPT] = now();
      arrived++;
    },
    arrivedFewerThan(requests, ms) {
      const n = Math.min(requests, ARRIVALS_KEPT);
      if (arrived < n) return true;
      // The n-th latest arrival: fewer than n arrived since it when it is older than the window.
      return (arrivals[(arrived - n) % ARRIVALS_KEPT] as number) < now() - ms;
    },
    lighterThan(requests, ms, every) {
      const t = now();
      looks.push({ at: t, arrived });
      if (looks.length > LOOKS_KEPT) looks.shift();
      // The latest earlier look at least `ms` old starts the window; every look after it on time.
      for (let i = looks.length - 2; i >= 0; i--) {
        const look = looks[i] as { at: number; arrived: number };
        const next = looks[i + 1] as { at: number; arrived: number };
        if (next.at - look.at > 2 * every) return false;
        if (t - look.at >= ms) return arrived - look.arrived < requests;
      }
      return false;
    },
  };
}
