/**
 * A floor: what the database and driver alone do with the same rows, written directly in the bench
 * process against the same translations table (Parlance's own migration), without Parlance.
 */
export interface Floor {
  /**
   * JSON.parse + flatten + one transaction of upserts of every row into `language`; ms. A row whose
   * value and status are unchanged is left alone by the database (the upsert's WHERE), as Parlance
   * leaves it alone by comparing first.
   */
  push(content: string, language: string): Promise<number>;
  /**
   * The keys and values of `language` ordered by key (what every export needs), plus JSON.stringify
   * of those rows; ms. One floor for every format.
   */
  pull(language: string): Promise<number>;
  close(): Promise<void>;
}

export const FLOOR_ORG = "00000000-0000-4000-8000-000000000001";
export const FLOOR_PROJECT = "00000000-0000-4000-8000-000000000002";
