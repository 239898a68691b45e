#!/usr/bin/env bun
/**
 * Where a small GET's CPU goes under the get-small figure's load (issue 13): for Parlance and the
 * hello-world ceiling, runs alternating, the CPU per request of the server process (all its
 * threads, and its main thread alone, from /proc/PID/task), of wrk (its resource usage) and of the
 * machine (/proc/stat), and how busy the server's main thread was. The figure is a ratio of two
 * req/s that move by a third with the machine's load; the server's CPU per request moves far less,
 * so it is the measure to compare two versions of the server with (docs/benchmarks.md, "Small GET,
 * where the rest goes, twelfth pass"). Not a figure: nothing here is compared with a target.
 *
 * usage: bun bench/cpu-split.ts [--store sqlite|postgres] [--rounds N] [--seconds S] [--parlance-only]
 * Hold the machine lock while it runs (docs/benchmarks.md, Method).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createKeys } from "./api.ts";
import { benchFetch } from "./http.ts";
import type { StoreKind } from "./names.ts";
import { type ChildServer, startHello } from "./process.ts";
import { openTarget } from "./target.ts";
import { type LoadResult, requireWrk, runLoad } from "./wrk.ts";

/** /proc's clock ticks per second (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;
/** Keys per run: 64 × 8,000 requests stays below every key's hourly limit at any rate seen here. */
const KEYS_PER_RUN = 64;
const LOAD = { connections: 64, threads: 2 };

interface Ticks {
  user: number;
  system: number;
}

/** Ticks of the whole machine: busy (every state but idle and iowait) and all. */
function machineTicks(): { busy: number; all: number; softirq: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, all: busy + idle + iowait, softirq };
}

/** A process's CPU ticks: all its threads, and its main thread (the event loop) alone. */
function processTicks(pid: number): { all: Ticks; main: Ticks } {
  const all = { user: 0, system: 0 };
  const main = { user: 0, system: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // a thread that ended between the listing and the read
    }
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const user = Number(rest[11]);
    const system = Number(rest[12]);
    all.user += user;
    all.system += system;
    if (tid === String(pid)) {
      main.user = user;
      main.system = system;
    }
  }
  return { all, main };
}

interface Split {
  rps: number;
  non2xx: number;
  server: Ticks;
  serverMain: Ticks;
  /** Share of the run the main thread ran, 0–1. */
  mainBusy: number;
  generator: Ticks;
  generatorSleeps: number;
  machineBusy: number;
  softirq: number;
  machineIdle: number;
}

async function measure(pid: number, url: string, keysFile: string, seconds: number): Promise<Split> {
  const m0 = machineTicks();
  const p0 = processTicks(pid);
  const load: LoadResult = await runLoad(url, keysFile, { ...LOAD, seconds });
  const p1 = processTicks(pid);
  const m1 = machineTicks();
  const n = Math.max(1, load.requests);
  const us = (ticks: number) => (ticks * 1e6) / TICKS_PER_SECOND / n;
  const perRequest = (a: Ticks, b: Ticks): Ticks => ({
    user: us(b.user - a.user),
    system: us(b.system - a.system),
  });
  const serverMain = perRequest(p0.main, p1.main);
  const all = m1.all - m0.all;
  return {
    rps: load.rps,
    non2xx: load.non2xx + load.socketErrors,
    server: perRequest(p0.all, p1.all),
    serverMain,
    mainBusy: ((serverMain.user + serverMain.system) * n) / 1e6 / load.seconds,
    generator: { user: load.generatorCpuUs.user / n, system: load.generatorCpuUs.system / n },
    generatorSleeps: load.generatorSleeps / n,
    machineBusy: us(m1.busy - m0.busy),
    softirq: us(m1.softirq - m0.softirq),
    machineIdle: all > 0 ? (all - (m1.busy - m0.busy)) / all : 0,
  };
}

const f1 = (x: number) => x.toFixed(1);
const both = (t: Ticks) => `${f1(t.user)} + ${f1(t.system)} = ${f1(t.user + t.system)}`;

function row(name: string, s: Split): string {
  const other = s.machineBusy - s.server.user - s.server.system - s.generator.user - s.generator.system;
  return [
    name.padEnd(8),
    `${Math.round(s.rps)}`.padStart(7),
    both(s.server).padStart(18),
    both(s.serverMain).padStart(18),
    `${Math.round(s.mainBusy * 100)} %`.padStart(6),
    both(s.generator).padStart(18),
    f1(s.generatorSleeps).padStart(6),
    f1(s.machineBusy).padStart(6),
    f1(s.softirq).padStart(6),
    f1(other).padStart(6),
    `${Math.round(s.machineIdle * 100)} %`.padStart(5),
    s.non2xx > 0 ? ` (${s.non2xx} non-2xx or errors)` : "",
  ].join(" ");
}

const HEADER = [
  "server".padEnd(8),
  "req/s".padStart(7),
  "server µs u+s".padStart(18),
  "main thread µs".padStart(18),
  "main".padStart(6),
  "wrk µs u+s".padStart(18),
  "sleeps".padStart(6),
  "busy".padStart(6),
  "sirq".padStart(6),
  "other".padStart(6),
  "idle".padStart(5),
].join(" ");

function parseArgs(argv: readonly string[]) {
  let store: StoreKind = "sqlite";
  let rounds = 3;
  let seconds = 5;
  let parlanceOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === "--store") {
      const value = next();
      if (value !== "sqlite" && value !== "postgres") throw new Error("--store is sqlite or postgres");
      store = value;
    } else if (arg === "--rounds") rounds = Number(next());
    else if (arg === "--seconds") seconds = Number(next());
    else if (arg === "--parlance-only") parlanceOnly = true;
    else throw new Error(`unknown argument ${JSON.stringify(arg)}`);
  }
  if (!(rounds >= 1 && seconds >= 1)) throw new Error("--rounds and --seconds are at least 1");
  return { store, rounds, seconds, parlanceOnly };
}

const args = parseArgs(process.argv.slice(2));
requireWrk();
const target = await openTarget(args.store, 0);
let hello: ChildServer | null = null;
try {
  hello = args.parlanceOnly ? null : await startHello();
  const path = `/api/v1/project?project_id=${target.projectId}`;
  let files = 0;
  const keysFile = async () => {
    const keys = await createKeys(target.api, `split${files}`, KEYS_PER_RUN, ["translations:read"]);
    const file = join(target.dir, `split-keys-${files++}.txt`);
    writeFileSync(file, `${keys.join("\n")}\n`);
    return { file, first: keys[0] as string };
  };
  const first = await keysFile();
  const probe = await benchFetch(`${target.server.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${first.first}` },
  });
  if (probe.status !== 200) throw new Error(`GET ${path} answered ${probe.status}`);
  await probe.arrayBuffer();
  const sides = [
    { name: "parlance", pid: target.server.pid, url: `${target.server.baseUrl}${path}` },
    ...(hello ? [{ name: "hello", pid: hello.pid, url: `${hello.baseUrl}${path}` }] : []),
  ];
  // Warm both (the JIT, the caches) before anything is measured.
  for (const side of sides) await runLoad(side.url, first.file, { ...LOAD, seconds: 2 });
  process.stdout.write(
    `CPU per request (µs) under wrk -t${LOAD.threads} -c${LOAD.connections}, ${args.store}; main: share of the run the server's event loop ran; sleeps: wrk's per request; other: the machine's busy time not the server's nor wrk's (softirq, other processes)\n${HEADER}\n`,
  );
  for (let i = 0; i < args.rounds; i++) {
    const { file } = await keysFile();
    // Alternating the order cancels a drift of the machine between the two.
    for (const side of i % 2 === 0 ? sides : [...sides].reverse())
      process.stdout.write(`${row(side.name, await measure(side.pid, side.url, file, args.seconds))}\n`);
  }
} finally {
  await hello?.stop();
  await target.close();
}
