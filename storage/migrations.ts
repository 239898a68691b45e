/**
 * Versioned schema migrations, shared by the SQL adapters. Each adapter keeps its own ordered list
 * and a tiny driver; this file only decides what runs, in which order.
 */
export interface Migration {
  /** Positive integer, strictly increasing along the list; never reused once released. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export interface MigrationDriver {
  /** Versions already recorded (creating the bookkeeping table if needed). */
  applied(): Promise<number[]>;
  /** Runs the migration's SQL and records its version, atomically. */
  apply(migration: Migration): Promise<void>;
}

/** The migrations of `list` not in `applied`, in version order. Throws on a malformed list. */
export function pendingMigrations(list: readonly Migration[], applied: readonly number[]): Migration[] {
  let previous = 0;
  for (const m of list) {
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(`Migration versions must be increasing positive integers (at "${m.name}")`);
    }
    previous = m.version;
  }
  const done = new Set(applied);
  const unknown = applied.filter((v) => !list.some((m) => m.version === v));
  if (unknown.length > 0) {
    // A database migrated by a newer release: running older code against it could corrupt it.
    throw new Error(`The database has migrations this version does not know: ${unknown.join(", ")}`);
  }
  return list.filter((m) => !done.has(m.version));
}

/** Applies what is pending, one migration at a time; the versions it applied. */
export async function runMigrations(driver: MigrationDriver, list: readonly Migration[]): Promise<number[]> {
  const pending = pendingMigrations(list, await driver.applied());
  for (const m of pending) await driver.apply(m);
  return pending.map((m) => m.version);
}
