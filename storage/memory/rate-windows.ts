import type { RateWindow, RateWindowStore } from "../../core/ports.ts";

export function createMemoryRateWindowStore(): RateWindowStore {
  const windows = new Map<string, RateWindow>();
  return {
    async load(nowMs) {
      return [...windows.values()].filter((w) => w.resetAt > nowMs).map((w) => ({ ...w }));
    },
    async save(saved, nowMs) {
      for (const w of saved) windows.set(w.bucket, { ...w });
      // A window ending at `nowMs` can never be loaded again (load wants windows ending after now).
      for (const [bucket, w] of windows) if (w.resetAt <= nowMs) windows.delete(bucket);
    },
  };
}
