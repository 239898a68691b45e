import type { Logger } from "../core/index.ts";
import { createServer } from "./app.ts";
import type { Config } from "./config.ts";
import type { Host, Listening } from "./host.ts";
import { describeStore, isProcessLocal } from "./open-store.ts";
import { openRuntime, QUIET_MS, QUIET_REQUESTS, type Runtime } from "./runtime.ts";
import type { Traffic } from "./traffic.ts";
import { VERSION } from "./version.ts";

const FLUSH_EVERY_MS = 5_000;
const PURGE_TOKENS_EVERY_MS = 3_600_000;
/** CONTRACT §11: exit within 5 seconds of SIGTERM or SIGINT. */
const SHUTDOWN_DEADLINE_MS = 4_500;

function bootstrapBanner(key: string, orgId: string, command: string, inProcess: boolean): string {
  const line = "=".repeat(78);
  return [
    line,
    "  Parlance first start: created organization 'Default' and API key 'bootstrap'",
    "  with every scope. It is shown ONCE; store it now:",
    "",
    `  ${key}`,
    "",
    ...(inProcess
      ? [
          "  The store lives in this process: operator commands cannot reach it. Create a project",
          "  in the workspace (the setup link below), or run on sqlite:<path> or postgres://….",
        ]
      : [
          "  Create a project with (in another terminal, same folder and PARLANCE_DATABASE_URL):",
          `  ${command} admin project create --org ${orgId} --name "My App" --base en --languages fr`,
        ]),
    line,
    "",
  ].join("\n");
}

function setupBanner(link: string, publicUrlSet: boolean): string {
  const line = "=".repeat(78);
  return [
    line,
    "  No one can sign in to the workspace yet. Open this one-time link (valid 24 hours)",
    "  to create the first owner:",
    "",
    `  ${link}`,
    ...(publicUrlSet
      ? []
      : [
          "",
          "  Behind a reverse proxy, or reached at another address? Set PARLANCE_PUBLIC_URL to the",
          "  address people open (https://tms.example.com) and start again: the link, the",
          "  workspace's Origin check and its Secure cookie use it (docs/operations.md).",
        ]),
    line,
    "",
  ].join("\n");
}

/** Where people reach this server: PARLANCE_PUBLIC_URL, else the address it listens on. */
function baseUrl(config: Config, port: number): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** What a failed listen means, in words that say what to do. */
function listenFailure(error: unknown, host: string, port: number): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE")
    return new Error(
      `Port ${port} on ${host} is already in use (another Parlance or another program listens there). Stop it, or choose another port with --port N or PORT.`,
    );
  if (code === "EACCES")
    return new Error(
      `Not allowed to listen on port ${port} (ports below 1024 need privileges): use --port N or PORT.`,
    );
  if (code === "EADDRNOTAVAIL")
    return new Error(`${host} is not an address of this machine: use --host ADDR or PARLANCE_HOST.`);
  return new Error(
    `Cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * The app `serve` listens with: the runtime's Parlance, with every request noted in its traffic
 * (so the collection after imports waits for lighter traffic) and failures logged.
 */
export function serverFor(
  runtime: Runtime,
  config: Config,
  log: Logger,
  host: Pick<Host, "setsForwardedFor" | "returnFreeMemory" | "buffersBodies" | "writesTextChunks">,
): ReturnType<typeof createServer> {
  return createServer(runtime.parlance, {
    development: config.development,
    // A host that sets X-Forwarded-For to the peer itself is one hop the app must read.
    trustProxy: config.trustProxy || (host.setsForwardedFor ? 1 : 0),
    // A 503 is the store not answering (an outage, a lock held too long), not a bug: a warning.
    onInternalError: (error, _request, status) =>
      status === 503
        ? log("warn", "storage unavailable; answered 503", { error: String(error) })
        : log("error", "internal error", { error: String(error) }),
    publicUrl: config.publicUrl,
    onRequest: runtime.traffic.note,
    returnFreeMemory: whenQuiet(
      runtime.traffic,
      host.returnFreeMemory && runtime.noted(host.returnFreeMemory),
    ),
    wholeBodies: host.buffersBodies ?? false,
    textChunks: host.writesTextChunks ?? false,
  });
}

/**
 * The host's collection at a large push's answer (the runtime runs it before the push's content is
 * read), run only under light traffic: it pauses the event loop as the collection after imports
 * does (QUIET_REQUESTS in QUIET_MS, server/runtime.ts), and under a load of small requests that pause sets their p99 (docs/benchmarks.md, "The collection at
 * a push's answer, under traffic"). Skipped, the engine's own collector frees the body later.
 */
function whenQuiet(traffic: Traffic, collect: (() => void) | undefined): (() => void) | undefined {
  if (!collect) return undefined;
  return () => {
    if (traffic.arrivedFewerThan(QUIET_REQUESTS, QUIET_MS)) collect();
  };
}

/**
 * `parlance serve`: opens the store, resumes jobs, listens, and shuts down cleanly on signals.
 * `command` is the `parlance` command as the user can run it here, for the first-start banner.
 * Rejects (with the store closed) when it cannot listen, e.g. on a port already in use.
 */
export async function serve(config: Config, log: Logger, host: Host, command: string): Promise<void> {
  const runtime = await openRuntime(config, log, host);
  const { parlance } = runtime;
  const app = serverFor(runtime, config, log, host);
  let listening: Listening;
  try {
    listening = await host.listen(app, config.host, config.port, config.trustProxy > 0);
  } catch (e) {
    await runtime.close();
    throw listenFailure(e, config.host, config.port);
  }
  // Jobs resume once listening: a server that cannot listen (port in use) must not release the
  // leases of jobs another server on the same store is running, and a long import resumed at start
  // must not hold the listening back.
  await parlance.start();
  // After listening: a server that cannot start must not have shown (and spent) the only sight
  // of the bootstrap key. Requests before this line get 401, as no key exists yet.
  if (config.bootstrap) {
    const first = await parlance.bootstrap();
    if (first)
      process.stderr.write(
        `${bootstrapBanner(first.key, first.orgId, command, isProcessLocal(config.databaseUrl))}Organization id: ${first.orgId}\n\n`,
      );
  }
  // A new setup link at each start while the store has no user (the earlier ones stay valid 24 h).
  const setupToken = await parlance.people.createSetupToken();
  if (setupToken)
    process.stderr.write(
      setupBanner(`${baseUrl(config, listening.port)}/setup#${setupToken}`, Boolean(config.publicUrl)),
    );
  if (config.trustProxy > 0 && !config.publicUrl)
    // Behind the proxy the workspace sees the Host the proxy sends and plain http: a browser's
    // Origin (https://…) would be refused, and its session cookie would not be Secure.
    log("warn", "PARLANCE_TRUST_PROXY is set but PARLANCE_PUBLIC_URL is not", {
      hint: "set PARLANCE_PUBLIC_URL to the address people open (e.g. https://tms.example.com): the workspace's Origin check, its links and its Secure cookie use it; see docs/operations.md, Behind a reverse proxy",
    });
  log("info", "listening", {
    host: config.host,
    port: listening.port,
    store: describeStore(config.databaseUrl),
    version: VERSION,
  });

  const timers = [
    setInterval(
      () => parlance.flush().catch((e) => log("warn", "flush failed", { error: String(e) })),
      FLUSH_EVERY_MS,
    ),
    setInterval(() => {
      parlance.storage.tokens.deleteExpired(parlance.now().toISOString()).catch(() => {});
      parlance.people.purgeSessions().catch(() => {});
    }, PURGE_TOKENS_EVERY_MS),
  ];

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("info", "shutting down", { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    for (const t of timers) clearInterval(t);
    await listening.stop();
    // Counters first: a job still running may outlast the deadline, and stays resumable anyway.
    await parlance.flush().catch((e) => log("warn", "flush failed", { error: String(e) }));
    // During a storage outage the counters cannot be written back: say so and exit, not crash.
    const closed = runtime.close().catch((e) => log("warn", "close failed", { error: String(e) }));
    await Promise.race([closed, new Promise((r) => setTimeout(r, SHUTDOWN_DEADLINE_MS - 1_000))]);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
