/**
 * checks-50k: `checkTranslation` over 50,000 realistic pairs (bench/checks-data.ts), in process: the
 * cost the checks add to a 50k push or a full re-check of a language.
 *
 * Floor: the naive check every tool starts with, one regular expression that pulls `{…}`, `{{…}}`,
 * `%…` and `<…>` out of both texts and compares the sorted lists, over the same pairs. The ratio
 * says what the real parser, plural-aware comparison and messages cost on top of it.
 */
import { type CheckInput, checkTranslation } from "../core/index.ts";
import { checkPairs } from "./checks-data.ts";
import { CHECKS } from "./names.ts";
import type { Options } from "./options.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";

type Log = (message: string) => void;

const NAIVE = /\{\{[^{}]*\}\}|\{[^{}]*\}|%[\d$.]*[a-z@]|<\/?[a-z][^<>]*>/gi;

function naive(pairs: readonly CheckInput[]): number {
  let flagged = 0;
  for (const { base, value } of pairs) {
    const b = (base ?? "").match(NAIVE)?.sort().join("\u0000") ?? "";
    const v = value.match(NAIVE)?.sort().join("\u0000") ?? "";
    if (b !== v) flagged++;
  }
  return flagged;
}

function real(pairs: readonly CheckInput[]): number {
  let flagged = 0;
  for (const pair of pairs) if (checkTranslation(pair).length > 0) flagged++;
  return flagged;
}

/** Wall-clock ms (the figure) and the process's CPU ms (evidence that holds up on a busy machine). */
function time(run: () => number): { ms: number; cpuMs: number; flagged: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const flagged = run();
  const ms = since(start);
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, flagged };
}

export function benchChecks(options: Options, log: Log): Figure {
  const pairs = checkPairs(options.rows);
  const samples: number[] = [];
  const floors: number[] = [];
  const cpu: number[] = [];
  const floorCpu: number[] = [];
  let flagged = 0;
  for (let i = 0; i < options.warmups + options.runs; i++) {
    const t = time(() => real(pairs));
    const f = time(() => naive(pairs));
    if (i < options.warmups) continue;
    samples.push(t.ms);
    floors.push(f.ms);
    cpu.push(t.cpuMs);
    floorCpu.push(f.cpuMs);
    flagged = t.flagged;
  }
  log(`checks: ${pairs.length} pairs, ${flagged} with warnings`);
  const details = {
    pairs: pairs.length,
    flagged,
    cpuMs: Math.round(median(cpu)),
    floorCpuMs: Math.round(median(floorCpu)),
  };
  return makeFigure(CHECKS, "ms", samples, floors, { details });
}
