/** `parlance-tms/storage/bun-sqlite`: storage on a `bun:sqlite` Database you opened. Bun only. */
export { createSqliteStorage } from "../../storage/sqlite/index.ts";
