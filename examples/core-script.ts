/**
 * Parlance's core in a script, no HTTP: an organization, a project, a push, a pull and coverage.
 * The storage is the first argument: memory (default), node:sqlite (Node, Deno), bun:sqlite (Bun),
 * or a postgres:// URL.
 *
 *   bun examples/core-script.ts            node examples/core-script.ts node:sqlite
 *   deno run -A examples/core-script.ts postgres://127.0.0.1:5432/test
 */
import { createParlance, type Storage } from "parlance-tms";

/** Opens the storage the argument names; `close` releases the adapter, then the client. */
async function openStorage(choice: string): Promise<{ storage: Storage; close(): Promise<void> }> {
  if (choice === "memory") {
    const { createMemoryStorage } = await import("parlance-tms/storage/memory");
    const storage = createMemoryStorage();
    return { storage, close: () => storage.close() };
  }
  if (choice === "node:sqlite") {
    const { DatabaseSync } = await import("node:sqlite");
    const { createNodeSqliteStorage } = await import("parlance-tms/storage/node-sqlite");
    const db = new DatabaseSync(":memory:");
    const storage = createNodeSqliteStorage(db);
    return { storage, close: () => storage.close().then(() => db.close()) };
  }
  if (choice === "bun:sqlite") {
    const { Database } = await import("bun:sqlite");
    const { createSqliteStorage } = await import("parlance-tms/storage/bun-sqlite");
    const db = new Database(":memory:");
    const storage = createSqliteStorage(db);
    return { storage, close: () => storage.close().then(() => db.close()) };
  }
  if (choice.startsWith("postgres://")) {
    const { default: postgres } = await import("postgres");
    const { createPostgresStorage } = await import("parlance-tms/storage/postgres");
    const sql = postgres(choice, { onnotice: () => {} });
    const storage = await createPostgresStorage(sql);
    return { storage, close: () => storage.close().then(() => sql.end()) };
  }
  throw new Error(`unknown storage ${choice}: use memory, node:sqlite, bun:sqlite or postgres://…`);
}

const { storage, close } = await openStorage(process.argv[2] ?? "memory");
const parlance = createParlance({ storage });

const org = await parlance.admin.createOrg("Acme");
const project = await parlance.admin.createProject({
  orgId: org.id,
  name: "Web shop",
  baseLanguage: "en",
  languages: ["fr", "de"],
});

// The application acts on its own authority: no API key to mint, store or rotate.
const acme = parlance.as(org.id, "example-script");
await acme.push({
  projectId: project.id,
  language: "en",
  content: '{"cart":{"title":"Cart","empty":"Empty"}}',
});
await acme.push({ projectId: project.id, language: "fr", content: '{"cart":{"title":"Panier"}}' });
await parlance.idle(); // imports run in the background; wait for them

const french = await acme.pull({ projectId: project.id, language: "fr", format: "yaml" });
const report = await acme.coverage(project.id);
console.log(french.filename);
console.log(french.body.trim());
for (const l of report.locales)
  console.log(`${l.language}: ${l.coveragePercent}% (${l.missingCount} missing)`);

await parlance.close();
await close();
