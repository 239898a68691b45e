/**
 * What a waiting push shows on stderr. On a terminal, one line redrawn in place with the elapsed
 * time; in a log (CI, a pipe) one line per state change, since redrawing would only add noise.
 */
import type { Output } from "./context.ts";

export interface Progress {
  start(): void;
  update(status: string): void;
  end(status: string): void;
  /** Leaves the terminal line clean before an error message is printed. */
  abort(): void;
}

export function createProgress(out: Output, jobId: string, now: () => number): Progress {
  const started = now();
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)} s`;
  let last = "";
  if (out.isTTY) {
    const draw = (text: string) => out.write(`\r\x1b[2K${text}`);
    return {
      start: () => draw(`parlance: job ${jobId} accepted`),
      update: (status) => draw(`parlance: job ${jobId} ${status} (${elapsed()})`),
      end: (status) => draw(`parlance: job ${jobId} ${status} after ${elapsed()}\n`),
      abort: () => draw(""),
    };
  }
  return {
    start: () => out.write(`parlance: job ${jobId} accepted; waiting for it to finish\n`),
    update(status) {
      if (status !== last) out.write(`parlance: job ${jobId} ${status}\n`);
      last = status;
    },
    end: (status) => out.write(`parlance: job ${jobId} ${status} after ${elapsed()}\n`),
    abort: () => {},
  };
}
