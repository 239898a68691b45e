import { DatabaseSync } from "node:sqlite";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { fromNodeSqlite } from "../../storage/sqlite/node-sqlite.ts";
import { runStorageContracts } from "../contract/index.ts";

// The SQLite adapter over node:sqlite (what Deno runs) honours every storage contract too.
runStorageContracts("sqlite storage via node:sqlite", async () => {
  const db = fromNodeSqlite(new DatabaseSync(":memory:"));
  const storage = createSqliteStorage(db);
  return {
    storage,
    async teardown() {
      await storage.close();
      db.close();
    },
  };
});
