import { Database } from "bun:sqlite";
import type { ParlanceServer } from "./app.ts";
import type { Host, Listening } from "./host.ts";

async function listen(app: ParlanceServer, hostname: string, port: number): Promise<Listening> {
  const server = app.listen({ port, hostname }).server;
  return {
    port: server?.port ?? port,
    async stop() {
      await app.stop();
    },
  };
}

/** Bun: bun:sqlite, and Elysia's own listener (Bun.serve). */
export const bunHost: Host = {
  openSqlite: (path) => new Database(path, { create: true }),
  listen,
  setsForwardedFor: false,
};
