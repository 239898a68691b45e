/**
 * Counts the requests the server begins to answer: whether it is quiet enough for a pause of the
 * event loop (a full garbage collection) to keep no request waiting.
 */
export interface Traffic {
  /** Called as each request arrives. */
  note(): void;
  /**
   * True when no request arrived since the previous call, made at least `ms` earlier. One look is
   * not enough: right after the event loop was held (an import's slice), no request has been
   * taken in yet, though many may be waiting; across `ms` of turns they would have been.
   */
  quietSince(ms: number): boolean;
}

export function createTraffic(now: () => number = () => performance.now()): Traffic {
  let requests = 0;
  let looked = { at: Number.NEGATIVE_INFINITY, requests: -1 };
  return {
    note() {
      requests++;
    },
    quietSince(ms) {
      const t = now();
      const quiet = t - looked.at >= ms && looked.requests === requests;
      if (t - looked.at >= ms || looked.requests !== requests) looked = { at: t, requests };
      return quiet;
    },
  };
}
