/**
 * Issue 14: the README's "How keys are flattened" section, held to what the server does. Each row of
 * its table is pushed as printed and must give exactly the rows it lists, stored and pulled as
 * text; the collision it shows as refused is refused, naming the key. Read from README.md, so the
 * section cannot drift from the product.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld, type World } from "../support/harness.ts";
import { REPO } from "../support/process.ts";
import { pushAndWait, sendPush, storedValues } from "../support/translation-io.ts";

const README = readFileSync(join(REPO, "README.md"), "utf8");
const start = README.indexOf("\n## How keys are flattened\n");
const SECTION = README.slice(start, README.indexOf("\n## ", start + 1));

interface Row {
  content: string;
  rows: Record<string, string>;
}

/** `| \`{…}\` | \`k\` = \`v\`, … |` rows of the section's table ("no row" lists none). */
const TABLE: Row[] = SECTION.split("\n")
  .filter((line) => /^\|\s*`\{/.test(line))
  .map((line) => {
    const [, pushed = "", listed = ""] = line.split(/\s*\|\s*/);
    const rows = Object.fromEntries(
      [...listed.matchAll(/`([^`]+)` = `([^`]*)`/g)].map((m) => [m[1] as string, m[2] as string]),
    );
    if (Object.keys(rows).length === 0) expect(listed).toStartWith("no row");
    return { content: pushed.slice(1, -1), rows };
  });

describe("the README's flattening rules", () => {
  let w: World;
  useWorld("memory", (world) => {
    w = world;
  });

  test("the table has the rows the section promises (arrays, numbers, booleans, null, empty)", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(7);
    const listed = TABLE.map((r) => r.content).join(" ");
    for (const shape of ["[", "true", "null", "1e3", "{}"]) expect(listed).toContain(shape);
  });

  test.each(TABLE.map((row) => [row.content, row] as const))("%s", async (_, row) => {
    const job = await pushAndWait(w.s, w.fr, row.content);
    expect(job.status).toBe("completed");
    expect(await storedValues(w.s, w.projectId)).toEqual(row.rows);
    const pulled = await w.s.request(`/api/v1/pull?project_id=${w.projectId}&language=fr`, { key: w.key });
    if (Object.keys(row.rows).length > 0) expect(await pulled.json()).toEqual(row.rows);
  });

  test("two inputs that flatten to one key are refused with 400 naming it", async () => {
    const example = /Two inputs that flatten to the same key \(`([^`]+)`/.exec(SECTION)?.[1];
    expect(example).toBeDefined();
    const res = await sendPush(w.s, w.fr, example as string);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("a.b");
    expect(await storedValues(w.s, w.projectId)).toEqual({});
  });
});
