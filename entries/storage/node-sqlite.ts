/**
 * `parlance-tms/storage/node-sqlite`: storage on a `node:sqlite` DatabaseSync you opened (Node 22.5+,
 * Deno). The same adapter, schema and contract suite as bun:sqlite, through a thin wrapper.
 */
import type { Storage } from "../../core/ports.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import type { NodeSqliteDatabase } from "../../storage/sqlite/node-database.ts";
import { fromNodeSqlite } from "../../storage/sqlite/node-sqlite.ts";

export type { NodeSqliteDatabase } from "../../storage/sqlite/node-database.ts";

/** Configures and migrates the connection; you still own it and close it after `storage.close()`. */
export const createNodeSqliteStorage = (db: NodeSqliteDatabase): Storage =>
  createSqliteStorage(fromNodeSqlite(db));
