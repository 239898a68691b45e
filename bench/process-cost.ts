/**
 * What one request cost a child server process, read from /proc around it (Linux): the CPU time
 * of its main thread (the event loop, which renders and sends a pulled file) and the pages it
 * faulted in. A pull's time moved by half from run to run on a virtual machine whose slow moments
 * are page faults; the server's CPU per pull moves far less, so it is the measure to compare two
 * versions of the server with (docs/benchmarks.md, "Where a pull's time goes, and freed memory
 * kept or returned, fifteenth pass").
 */
import { readFileSync } from "node:fs";

export interface ProcessCost {
  /** CPU of the main thread in ms (/proc/PID/schedstat, nanoseconds on CPU). */
  mainCpuMs: number;
  /** Minor page faults of the whole process (/proc/PID/stat, field 10). */
  faults: number;
}

/** The process's totals so far, or null where /proc cannot be read (not Linux). */
export function processCost(pid: number): ProcessCost | null {
  try {
    const ns = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which may hold spaces: minflt is the 8th.
    const faults = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
    return Number.isFinite(ns) && Number.isFinite(faults) ? { mainCpuMs: ns / 1e6, faults } : null;
  } catch {
    return null;
  }
}

/** What `work` cost the process, or null where it cannot be read. */
export async function costOf<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cost: ProcessCost | null }> {
  const before = processCost(pid);
  const result = await work();
  const after = processCost(pid);
  const cost =
    before && after
      ? { mainCpuMs: after.mainCpuMs - before.mainCpuMs, faults: after.faults - before.faults }
      : null;
  return { result, cost };
}
