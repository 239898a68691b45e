/**
 * `bun run start:deno`: the same API under Deno (CONTRACT §1), through Elysia's web-standard fetch
 * handler, SQLite through node:sqlite and Postgres through postgres.
 */
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { fromNodeSqlite } from "../storage/sqlite/node-sqlite.ts";
import { checkFlags, parseArgs, UsageError } from "./cli/args.ts";
import { commandAsInvoked } from "./cli/invocation.ts";
import { SERVE_FLAGS, withServeFlags } from "./cli/serve-flags.ts";
import { SERVE_USAGE } from "./cli/usage.ts";
import { readConfig } from "./config.ts";
import type { Host } from "./host.ts";
import { stderrLogger } from "./log.ts";
import { routable } from "./request-target.ts";
import { serve } from "./serve.ts";
import { VERSION } from "./version.ts";

/** The part of Deno's global this entry uses. */
declare const Deno: {
  serve(
    options: {
      port: number;
      hostname: string;
      reusePort?: boolean;
      onListen?: (addr: { port: number }) => void;
    },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
};

const denoHost: Host = {
  openSqlite: (path) => fromNodeSqlite(new DatabaseSync(path)),
  async listen(app, hostname, port, trustProxy) {
    // No port sharing: a second server on a busy port must fail (EADDRINUSE), not split the traffic.
    const server = Deno.serve({ port, hostname, reusePort: false, onListen() {} }, (request, info) => {
      if (trustProxy) return app.handle(routable(request));
      // The socket peer, set here so a client cannot choose it: the anonymous limiter keys on it.
      const headers = new Headers(request.headers);
      headers.set("x-forwarded-for", info.remoteAddr.hostname);
      return app.handle(routable(new Request(request, { headers })));
    });
    return { port: server.addr.port, stop: () => server.shutdown() };
  },
  setsForwardedFor: true,
};

// Operator commands run under Bun: the banner points at the `parlance` command beside this file.
const command = commandAsInvoked({
  argv0: process.argv0,
  main: fileURLToPath(import.meta.url),
  cliPath: fileURLToPath(new URL("./cli.ts", import.meta.url)),
  script: process.env.npm_lifecycle_event,
  cwd: process.cwd(),
});

// The same command line as `parlance serve`: --port, --host, --help, --version.
const args = parseArgs(process.argv.slice(2));
if (args.flags.has("version")) {
  process.stdout.write(`parlance ${VERSION}\n`);
  process.exit(0);
}
if (args.flags.has("help")) {
  process.stdout.write(`${SERVE_USAGE}\n`);
  process.exit(0);
}
try {
  checkFlags(args, "start:deno", SERVE_FLAGS, 0);
  await serve(withServeFlags(readConfig(process.env), args), stderrLogger, denoHost, command);
} catch (e) {
  process.stderr.write(`parlance: ${e instanceof Error ? e.message : String(e)}\n`);
  if (e instanceof UsageError) process.stderr.write(`\n${SERVE_USAGE}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
}
