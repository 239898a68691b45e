import type { Logger } from "../core/index.ts";
import { createServer } from "./app.ts";
import type { Config } from "./config.ts";
import type { Host } from "./host.ts";
import { openRuntime } from "./runtime.ts";

const FLUSH_EVERY_MS = 5_000;
const POLL_JOBS_EVERY_MS = 2_000;
const PURGE_TOKENS_EVERY_MS = 3_600_000;
/** CONTRACT §11: exit within 5 seconds of SIGTERM or SIGINT. */
const SHUTDOWN_DEADLINE_MS = 4_500;

function bootstrapBanner(key: string): string {
  const line = "=".repeat(78);
  return [
    line,
    "  Parlance first start: created organization 'Default' and API key 'bootstrap'",
    "  with every scope. It is shown ONCE; store it now:",
    "",
    `  ${key}`,
    "",
    "  Create projects with: bun run parlance admin project create --org <org id> ...",
    line,
    "",
  ].join("\n");
}

/** `parlance serve`: opens the store, resumes jobs, listens, and shuts down cleanly on signals. */
export async function serve(config: Config, log: Logger, host: Host): Promise<void> {
  const runtime = await openRuntime(config, log, host);
  const { parlance } = runtime;
  if (config.bootstrap) {
    const first = await parlance.bootstrap();
    if (first) process.stderr.write(`${bootstrapBanner(first.key)}Organization id: ${first.orgId}\n\n`);
  }
  await parlance.start();
  const app = createServer(parlance, {
    development: config.development,
    trustProxy: config.trustProxy || host.setsForwardedFor,
    onInternalError: (error) => log("error", "internal error", { error: String(error) }),
  });
  const listening = await host.listen(app, config.host, config.port, config.trustProxy);
  log("info", "listening", {
    host: config.host,
    port: listening.port,
    storage: config.databaseUrl.split(":")[0],
  });

  const timers = [
    setInterval(
      () => parlance.flush().catch((e) => log("warn", "flush failed", { error: String(e) })),
      FLUSH_EVERY_MS,
    ),
    setInterval(
      () => parlance.storage.tokens.deleteExpired(parlance.now().toISOString()).catch(() => {}),
      PURGE_TOKENS_EVERY_MS,
    ),
  ];
  if (parlance.storage.shared) timers.push(setInterval(() => parlance.wakeJobs(), POLL_JOBS_EVERY_MS));

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
    await Promise.race([runtime.close(), new Promise((r) => setTimeout(r, SHUTDOWN_DEADLINE_MS - 1_000))]);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
