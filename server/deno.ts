/**
 * `bun run start:deno`: the same API under Deno (CONTRACT §1), through Elysia's web-standard fetch
 * handler, SQLite through node:sqlite and Postgres through postgres.
 */
import { DatabaseSync } from "node:sqlite";
import { fromNodeSqlite } from "../storage/sqlite/node-sqlite.ts";
import { readConfig } from "./config.ts";
import type { Host } from "./host.ts";
import { stderrLogger } from "./log.ts";
import { serve } from "./serve.ts";

/** The part of Deno's global this entry uses. */
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
};

const denoHost: Host = {
  openSqlite: (path) => fromNodeSqlite(new DatabaseSync(path)),
  async listen(app, hostname, port, trustProxy) {
    const server = Deno.serve({ port, hostname, onListen() {} }, (request, info) => {
      if (trustProxy) return app.handle(request);
      // The socket peer, set here so a client cannot choose it: the anonymous limiter keys on it.
      const headers = new Headers(request.headers);
      headers.set("x-forwarded-for", info.remoteAddr.hostname);
      return app.handle(new Request(request, { headers }));
    });
    return { port: server.addr.port, stop: () => server.shutdown() };
  },
  setsForwardedFor: true,
};

await serve(readConfig(process.env), stderrLogger, denoHost);
