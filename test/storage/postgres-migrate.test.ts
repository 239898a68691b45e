import { expect, test } from "bun:test";
import { migratePostgres, postgresMigrations } from "../../storage/postgres/index.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

if (await postgresReachable()) {
  test("two instances migrating one empty schema at once both succeed, each version applied once", async () => {
    const schema = await createTestSchema();
    try {
      const [a, b] = [schema.connect(2), schema.connect(2)];
      const applied = await Promise.all([migratePostgres(a), migratePostgres(b)]);
      // One of them did the work; the other waited on the lock and found nothing left.
      expect(applied.map((v) => v.length).sort()).toEqual([0, postgresMigrations.length]);
      const rows =
        await a`SELECT version, count(*)::int AS n FROM parlance_migrations GROUP BY version ORDER BY version`;
      expect(rows.map((r) => [r.version, r.n])).toEqual(postgresMigrations.map((m) => [m.version, 1]));
      expect(await migratePostgres(a)).toEqual([]);
    } finally {
      await schema.drop();
    }
  });

  test("a database migrated by a newer release is refused", async () => {
    const schema = await createTestSchema();
    try {
      const sql = schema.connect(1);
      await migratePostgres(sql);
      await sql`INSERT INTO parlance_migrations (version, name) VALUES (9999, 'from the future')`;
      await expect(migratePostgres(sql)).rejects.toThrow(/9999/);
    } finally {
      await schema.drop();
    }
  });
}
