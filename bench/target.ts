/**
 * One store under test: a fresh database, the real server on it as a child process, a project, keys,
 * and the floor next to it. SQLite: files in a temp folder. Postgres: two fresh databases
 * (`bench_<random>` for the server, `…_floor` for the floor), dropped at the end.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { Api, createKeys } from "./api.ts";
import type { Floor } from "./floor.ts";
import { openPostgresFloor } from "./floor-postgres.ts";
import { openSqliteFloor } from "./floor-sqlite.ts";
import type { StoreKind } from "./names.ts";
import { admin, type ChildServer, startParlance } from "./process.ts";

/** The cluster the Postgres figures use; the bench creates and drops its own databases there. */
export const POSTGRES_URL =
  process.env.PARLANCE_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface Target {
  store: StoreKind;
  dir: string;
  databaseUrl: string;
  server: ChildServer;
  /** Rotates over a few keys with every scope (10,000 requests per hour each). */
  api: Api;
  projectId: string;
  /** Empty languages of the project, one per "push into an empty language" run. */
  freshLanguages: string[];
  floor: Floor;
  close(): Promise<void>;
}

const OPS_KEYS = 4;

export async function openTarget(store: StoreKind, freshCount: number): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), `parlance-bench-${store}-`));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (e) {
        process.stderr.write(`bench: cleanup failed: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
    cleanups.length = 0;
  };
  try {
    let databaseUrl: string;
    let floor: Floor;
    if (store === "sqlite") {
      databaseUrl = `sqlite:${join(dir, "parlance.sqlite")}`;
      floor = openSqliteFloor(join(dir, "floor.sqlite"));
    } else {
      const name = `bench_${randomBytes(6).toString("hex")}`;
      const root = postgres(POSTGRES_URL, { onnotice: () => {}, max: 1 });
      cleanups.push(() => root.end({ timeout: 5 }));
      for (const db of [name, `${name}_floor`]) {
        await root.unsafe(`CREATE DATABASE "${db}"`);
        cleanups.push(async () => {
          await root.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        });
      }
      const urlOf = (db: string) => {
        const url = new URL(POSTGRES_URL);
        url.pathname = `/${db}`;
        return url.toString();
      };
      databaseUrl = urlOf(name);
      floor = await openPostgresFloor(postgres(urlOf(`${name}_floor`), { onnotice: () => {} }));
    }
    cleanups.push(() => floor.close());

    const server = await startParlance(databaseUrl);
    cleanups.push(() => server.stop());
    const keys = await createKeys(new Api(server.baseUrl, [server.bootstrapKey]), "ops", OPS_KEYS);
    const freshLanguages = Array.from({ length: freshCount }, (_, i) => `de-x${i + 1}`);
    const project = await admin<{ id: string }>(databaseUrl, [
      "project",
      "create",
      "--org",
      server.orgId,
      "--name",
      "Bench",
      "--base",
      "en",
      "--languages",
      ["fr", ...freshLanguages].join(","),
    ]);
    return {
      store,
      dir,
      databaseUrl,
      server,
      api: new Api(server.baseUrl, keys),
      projectId: project.id,
      freshLanguages,
      floor,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
