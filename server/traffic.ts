/**
 * Counts the requests the server begins to answer: whether traffic is light enough for a pause of
 * the event loop (a full garbage collection) to keep few requests waiting.
 */
export interface Traffic {
  /** Called as each request arrives. */
  note(): void;
  /**
   * True when fewer than `requests` arrived over the last `ms`, counted from an earlier call made
   * at least `ms` before this one (the first calls answer false). The window is taken between
   * calls, not from each request's time: right after the event loop was held (an import's slice)
   * no request has been taken in yet, though many may be waiting.
   */
  lighterThan(requests: number, ms: number): boolean;
}

/** Earlier calls kept: enough for a window of several calls. */
const LOOKS_KEPT = 16;

export function createTraffic(now: () => number = () => performance.now()): Traffic {
  let arrived = 0;
  const looks: { at: number; arrived: number }[] = [];
  return {
    note() {
      arrived++;
    },
    lighterThan(requests, ms) {
      const t = now();
      // The latest look at least `ms` old: the window runs from it to now.
      let from: { at: number; arrived: number } | undefined;
      for (const look of looks) if (t - look.at >= ms) from = look;
      looks.push({ at: t, arrived });
      if (looks.length > LOOKS_KEPT) looks.shift();
      return from !== undefined && arrived - from.arrived < requests;
    },
  };
}
