/**
 * `parlance-tms/storage/postgres`: storage on a `postgres` (Postgres.js) client you built; migrates
 * the schema its search_path names. Several instances may share the database. Bun, Deno, Node.
 */
export { createPostgresStorage } from "../../storage/postgres/index.ts";
