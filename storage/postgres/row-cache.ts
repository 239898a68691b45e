import type { Sql } from "postgres";
import { type ChangeFeed, createChangeFeed } from "./change-feed.ts";

/** The tables whose rows are read on every request and written rarely. */
export type CachedTable = "api_keys" | "access_tokens" | "projects" | "organizations";

/**
 * Rows read on (nearly) every request, kept in this instance so a small request makes no round
 * trip: API keys, access tokens, projects, organizations. An entry is dropped when its row
 * changes: at once when this instance wrote it, and through the change feed (LISTEN/NOTIFY) when
 * another session did. Entries are served only while the feed is fresh (storage/postgres/change-feed.ts),
 * so what is served is never more than the feed's STALE_MS behind the database; otherwise every
 * read goes to the database, as without a cache. Absent rows are never cached.
 */
export interface RowCache {
  /**
   * The entry under `key` in `table`, else what `load` returns, kept under the row's primary key
   * (`idOf`) unless a change was heard while it loaded (it may then predate the change).
   */
  read<T>(
    table: CachedTable,
    key: string,
    load: () => Promise<T | null>,
    idOf: (row: T) => string,
  ): Promise<T | null>;
  /** The entry under `key` in `table` while the cache serves; `undefined` when `read` must go on. */
  peek<T>(table: CachedTable, key: string): T | undefined;
  /** Drops the entries of a row this instance has just changed (committed). */
  drop(table: CachedTable, id: string): void;
  /** Drops every entry of the table. */
  dropAll(table: CachedTable): void;
  close(): Promise<void>;
}

/** Past this many entries a table starts over, so lookups cannot grow it without bound. */
const MAX_ENTRIES = 10_000;

interface Table {
  entries: Map<string, { id: string; row: unknown }>;
  /** Primary key → the lookup keys holding that row (a key is cached by hash and by id). */
  byId: Map<string, string[]>;
}

const TABLES: readonly CachedTable[] = ["api_keys", "access_tokens", "projects", "organizations"];

export function createRowCache(sql: Sql): RowCache {
  const tables = new Map<string, Table>(TABLES.map((t) => [t, { entries: new Map(), byId: new Map() }]));
  /** Bumped on every drop: a load that overlapped one is not kept. */
  let generation = 0;

  const drop = (table: string, id: string) => {
    generation++;
    const t = tables.get(table);
    const keys = t?.byId.get(id);
    if (!t || !keys) return;
    t.byId.delete(id);
    for (const key of keys) t.entries.delete(key);
  };
  const clear = (t: Table) => {
    t.entries.clear();
    t.byId.clear();
  };
  const feed: ChangeFeed = createChangeFeed(sql, {
    changed: drop,
    reset() {
      generation++;
      for (const t of tables.values()) clear(t);
    },
  });

  return {
    async read<T>(table: CachedTable, key: string, load: () => Promise<T | null>, idOf: (row: T) => string) {
      if (!feed.fresh()) return load();
      const t = tables.get(table) as Table;
      const hit = t.entries.get(key);
      if (hit) return hit.row as T;
      const before = generation;
      const row = await load();
      if (row === null || generation !== before || !feed.fresh()) return row;
      if (t.entries.size >= MAX_ENTRIES) clear(t);
      const id = idOf(row);
      t.entries.set(key, { id, row });
      const keys = t.byId.get(id);
      if (keys) keys.push(key);
      else t.byId.set(id, [key]);
      return row;
    },
    peek<T>(table: CachedTable, key: string) {
      if (!feed.fresh()) return undefined;
      return (tables.get(table) as Table).entries.get(key)?.row as T | undefined;
    },
    drop,
    dropAll(table) {
      generation++;
      clear(tables.get(table) as Table);
    },
    close: () => feed.close(),
  };
}
