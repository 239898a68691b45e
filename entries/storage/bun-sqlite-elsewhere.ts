/**
 * What `parlance-tms/storage/bun-sqlite` resolves to outside Bun (the exports map's `default`;
 * Bun takes its `bun` condition): a clear refusal naming the entry to use instead, where the real
 * entry would fail on its `bun:sqlite` import with a loader error about URL schemes.
 */
throw new Error(
  "parlance-tms/storage/bun-sqlite runs on Bun only (it wraps bun:sqlite). On Node 22+ or Deno, " +
    "use parlance-tms/storage/node-sqlite: createNodeSqliteStorage(new DatabaseSync(path)), the same schema.",
);
