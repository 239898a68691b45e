import { expect, test } from "bun:test";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { runStorageContracts } from "../contract/index.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

if (await postgresReachable()) {
  // Each test gets a schema of its own, migrated from empty.
  runStorageContracts(
    "postgres",
    async () => {
      const schema = await createTestSchema();
      const storage = await createPostgresStorage(schema.connect());
      return {
        storage,
        async teardown() {
          await storage.close();
          await schema.drop();
        },
      };
    },
    test,
  );

  test("postgres storage reads a pull's rows without their ids", async () => {
    // The contract test of listForExportWithoutIds passes over a store without it; Postgres has it.
    const schema = await createTestSchema();
    const storage = await createPostgresStorage(schema.connect());
    try {
      expect(typeof storage.translations.listForExportWithoutIds).toBe("function");
    } finally {
      await storage.close();
      await schema.drop();
    }
  });
}
