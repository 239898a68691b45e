import { ALL_FIGURES } from "./names.ts";

export interface Options {
  json: boolean;
  /** Figures to run; all when null. */
  only: Set<string> | null;
  smoke: boolean;
  /** Leaf strings per pushed document (50,000; the smoke run 1,000). */
  rows: number;
  /** Measured runs per time figure, after `warmups` unmeasured ones. */
  runs: number;
  warmups: number;
  /** Load runs of the small GET (each against Parlance and against hello-world). */
  loadRuns: number;
  loadSeconds: number;
  loadWarmupSeconds: number;
  connections: number;
  threads: number;
  /** Phase timings on stderr. */
  verbose: boolean;
}

export const USAGE = `usage: bun run bench [--json] [--only NAME…] [--rows N] [--smoke] [--runs N] [--seconds S] [--verbose]

  --json       one JSON document {"figures":[…]} on stdout instead of the table
  --only       run these figures only: ${ALL_FIGURES.join(", ")}
  --rows N     leaf strings per pushed document, and pairs for checks-50k (default 50000)
  --smoke      1,000 rows, 2 runs, 1-second loads: checks the harness, not the speed
  --runs N     measured runs per figure (default 5; load runs default 3)
  --seconds S  length of each load run (default 10)
  --verbose    phase timings and server details on stderr`;

export class UsageError extends Error {}

function positiveInt(flag: string, raw: string | undefined): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} needs a positive integer`);
  return n;
}

export function parseOptions(argv: readonly string[]): Options {
  let json = false;
  let smoke = false;
  let verbose = false;
  let only: Set<string> | null = null;
  let rows: number | undefined;
  let runs: number | undefined;
  let seconds: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--json") json = true;
    else if (arg === "--smoke") smoke = true;
    else if (arg === "--verbose") verbose = true;
    else if (arg === "--rows") {
      rows = positiveInt(arg, argv[++i]);
      if (rows > 50_000) throw new UsageError("--rows is at most 50000, the push limit");
    } else if (arg === "--runs") runs = positiveInt(arg, argv[++i]);
    else if (arg === "--seconds") seconds = positiveInt(arg, argv[++i]);
    else if (arg === "--only") {
      only ??= new Set();
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("--")) {
        for (const name of (argv[++i] as string).split(",")) {
          if (name === "") continue;
          if (!ALL_FIGURES.includes(name)) throw new UsageError(`unknown figure ${JSON.stringify(name)}`);
          only.add(name);
        }
      }
      if (only.size === 0) throw new UsageError("--only needs at least one figure name");
    } else if (arg === "--help" || arg === "-h") throw new UsageError("");
    else throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
  }
  return {
    json,
    only,
    smoke,
    rows: rows ?? (smoke ? 1_000 : 50_000),
    runs: runs ?? (smoke ? 2 : 5),
    warmups: 1,
    loadRuns: runs ?? (smoke ? 2 : 3),
    loadSeconds: seconds ?? (smoke ? 1 : 10),
    loadWarmupSeconds: smoke ? 1 : 2,
    connections: 64,
    threads: 2,
    verbose,
  };
}

export const wants = (options: Options, name: string) => options.only === null || options.only.has(name);
