/**
 * POST /api/v1/push refusals (API.md push, CONTRACT §6 and §11): every 400, 404 and 413, each
 * writing nothing and creating no job.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { countJobsCreated, expectError, sendPush, storedValues } from "../support/translation-io.ts";

const MiB = 1024 * 1024;
const MAX_CONTENT = 12 * MiB;

/** `{"k":"<filler>"}`: 8 characters around the filler. */
const oneValue = (filler: string) => `{"k":"${filler}"}`;

/** A flat object of `n` rows, built once per size. */
const rowsCache = new Map<number, string>();
function rows(n: number): string {
  let content = rowsCache.get(n);
  if (!content) {
    const obj: Record<string, string> = {};
    for (let i = 0; i < n; i++) obj[`k${i}`] = "v";
    content = JSON.stringify(obj);
    rowsCache.set(n, content);
  }
  return content;
}

/** A leaf inside `objects` nested containers (the top-level object counts as 1), the last an array when asked. */
function nested(objects: number, lastIsArray = false): unknown {
  let inner: unknown = lastIsArray ? ["leaf"] : { leaf: "v" };
  for (let i = 1; i < objects; i++) inner = { n: inner };
  return inner;
}

await forEachStore((kind) => {
  let s: TestServer;
  let key: string;
  let projectId: string;
  let jobsCreated: () => number;

  beforeEach(async () => {
    s = await startTestServer(kind);
    const w = await s.seed.world();
    key = w.key.key;
    projectId = w.project.id;
    jobsCreated = countJobsCreated(s);
  });
  afterEach(() => s.close());

  const push = (content: unknown, extra: Record<string, unknown> = {}) =>
    sendPush(s, { key, projectId }, content, extra);

  async function nothingWritten(): Promise<void> {
    await s.idle();
    for (const language of ["en", "fr", "de"]) expect(await storedValues(s, projectId, language)).toEqual({});
    expect(jobsCreated()).toBe(0);
  }

  /** The Error object with the status, and nothing stored in any language, and no job. */
  async function refused(res: Response, status: number, ...fragments: string[]): Promise<string> {
    const message = await expectError(res, status, ...fragments);
    await nothingWritten();
    return message;
  }

  const ok = async (res: Response) => {
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };

  describe("content", () => {
    test("that is not a JSON object → 400", async () => {
      for (const content of ["[]", '["a"]', '"text"', "1", "null", "true"]) {
        await refused(await push(content), 400, "JSON object");
      }
    });

    test("that is not valid JSON → 400", async () => {
      for (const content of ["{", "", "{'a':'b'}", '{"a":"b",}', '{"a":"b"} x']) {
        await refused(await push(content), 400, "JSON");
      }
    });

    test("with a number out of range → 400 naming the key", async () => {
      await refused(await push('{"menu":{"price":1e400}}'), 400, "menu.price");
      await refused(await push('{"low":-1e400}'), 400, "low");
    });

    test("with two inputs flattening to the same key → 400 naming the key", async () => {
      await refused(await push('{"a.b":"x","a":{"b":"y"}}'), 400, '"a.b"');
      await refused(await push('{"list":{"0":"x"},"list.0":"y"}'), 400, '"list.0"');
      await refused(await push('{"list":["x"],"list.0":"y"}'), 400, '"list.0"');
    });

    test("with an empty key segment → 400", async () => {
      const bad = [
        '{"":"x"}',
        '{".a":"x"}',
        '{"a..b":"x"}',
        '{"a.":"x"}',
        '{"a":{"":"x"}}',
        '{"":{"a":"x"}}',
      ];
      for (const content of bad) await refused(await push(content), 400, "empty segment");
      // Dots inside one segment are fine when nothing is empty.
      expect(await ok(await push('{"a.b.c":"x"}', { dryRun: true }))).toMatchObject({ rowCount: 1 });
    });

    test("with a key longer than 1,000 code points → 400; exactly 1,000 is fine, astral characters counting once", async () => {
      await refused(await push({ [`k${"x".repeat(1000)}`]: "v" }), 400, "longer than 1000");
      await refused(await push({ ["😀".repeat(1001)]: "v" }), 400, "longer than 1000");
      // The length is that of the flattened key: 500 + "." + 500.
      await refused(await push({ ["a".repeat(500)]: { ["b".repeat(500)]: "v" } }), 400, "longer than 1000");
      const fine = {
        ["x".repeat(1000)]: "1",
        ["😀".repeat(1000)]: "2",
        ["a".repeat(499)]: { ["b".repeat(500)]: "3" },
      };
      expect(await ok(await push(fine, { dryRun: true }))).toMatchObject({ rowCount: 3, toCreate: 3 });
    });

    test("with a leaf more than 32 containers deep → 400; 32 is fine; arrays count as levels", async () => {
      expect(await ok(await push(nested(32), { dryRun: true }))).toMatchObject({ rowCount: 1 });
      expect(await ok(await push(nested(32, true), { dryRun: true }))).toMatchObject({ rowCount: 1 });
      await refused(await push(nested(33)), 400, "32");
      await refused(await push(nested(33, true)), 400, "32");
      // Deep empty containers hold no leaf and contribute nothing.
      let empty: unknown = {};
      for (let i = 0; i < 40; i++) empty = { n: empty, e: [] };
      expect(await ok(await push({ a: "x", deep: empty }, { dryRun: true }))).toMatchObject({ rowCount: 1 });
    });

    test("with a character no export can carry in a key or a value → 400 naming the key", async () => {
      const bad = ["\u0000", "\u0001", "\u0008", "\u000B", "\u000C", "\u000E", "\u001F", "\uFFFE", "\uFFFF"];
      const lone = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "x\uDC00\uD800y"];
      for (const c of [...bad, ...lone]) {
        await refused(await push({ menu: { title: `a${c}b` } }), 400, "menu.title");
        await refused(await push({ menu: { [`ti${c}tle`]: "v" } }), 400, "menu.ti");
      }
    });

    test("with tab, LF, CR, DEL, U+0080–U+009F and paired surrogates → accepted as written", async () => {
      const values = {
        tab: "a\tb",
        lf: "a\nb",
        cr: "a\rb",
        del: "a\u007Fb",
        c1: "\u0080\u0085\u009F",
        astral: "😀𝄞",
        bom: "\uFEFF",
        "key\u007F\u0080\u009F": "v",
      };
      const res = await push(values);
      expect(res.status).toBe(202);
      await s.idle();
      expect(await storedValues(s, projectId)).toEqual(values);
    });
  });

  describe("fields", () => {
    test("a malformed language → 400", async () => {
      for (const language of ["", "f", "fr_FR", "français", "fr-", "-fr", "frnc", "fr-toolongsubtag", "12"]) {
        await refused(await push({ a: "x" }, { language }), 400, "language");
      }
    });

    test("a well-formed language the project lacks → 400, compared exactly as written", async () => {
      await refused(
        await push({ a: "x" }, { language: "es" }),
        400,
        `language "es" is not one of the project's languages (en, fr, de); an admin adds it in the workspace's project settings or with parlance admin project add-language`,
      );
      await refused(await push({ a: "x" }, { language: "FR" }), 400, "FR");
      await refused(await push({ a: "x" }, { language: "fr-FR" }), 400, "fr-FR");
    });

    test("a format other than json → 400; json itself is fine", async () => {
      for (const format of ["yaml", "csv", "JSON", ""])
        await refused(await push({ a: "x" }, { format }), 400, "format");
      expect(await ok(await push({ a: "x" }, { format: "json", dryRun: true }))).toMatchObject({
        rowCount: 1,
      });
    });

    test("an unknown importMode or status → 400 naming the field", async () => {
      await refused(await push({ a: "x" }, { importMode: "upsert" }), 400, "importMode");
      await refused(await push({ a: "x" }, { importMode: "Merge" }), 400, "importMode");
      await refused(await push({ a: "x" }, { status: "done" }), 400, "status");
      await refused(await push({ a: "x" }, { status: "APPROVED" }), 400, "status");
    });

    test("fields of the wrong type → 400 naming the field", async () => {
      await refused(await push({ a: "x" }, { dryRun: "yes" }), 400, "dryRun");
      await refused(await push({ a: "x" }, { content: { a: "x" } }), 400, "content");
      await refused(await push({ a: "x" }, { language: 7 }), 400, "language");
    });

    test("a missing required field → 400 naming it", async () => {
      for (const field of ["content", "language", "projectId"]) {
        const body: Record<string, unknown> = { content: '{"a":"x"}', language: "fr", projectId };
        delete body[field];
        const res = await s.request("/api/v1/push", { method: "POST", key, json: body });
        await refused(res, 400, field);
      }
    });

    test("a body that is not JSON, or not an object → 400", async () => {
      const send = (body: string) =>
        s.request("/api/v1/push", {
          method: "POST",
          key,
          body,
          headers: { "content-type": "application/json" },
        });
      await refused(await send("{"), 400);
      await refused(await send("[]"), 400);
      await refused(await send(""), 400);
    });

    test("a projectId that is not a UUID → 400 naming it", async () => {
      await refused(await push({ a: "x" }, { projectId: "not-a-uuid" }), 400, "projectId");
      await refused(await push({ a: "x" }, { projectId: "" }), 400, "projectId");
    });

    test("an unknown project, another organization's, or a deleted one → 404", async () => {
      await refused(await push({ a: "x" }, { projectId: crypto.randomUUID() }), 404);
      const other = await s.seed.project((await s.seed.org()).id);
      await refused(await push({ a: "x" }, { projectId: other.id }), 404);
      expect(await storedValues(s, other.id)).toEqual({});
      await s.parlance.admin.deleteProject(projectId);
      await expectError(await push({ a: "x" }), 404);
      expect(jobsCreated()).toBe(0);
    });
  });

  describe("413 Payload too large", () => {
    test("content over 12 MiB of UTF-8 → 413; exactly 12 MiB is fine", async () => {
      const exact = oneValue("x".repeat(MAX_CONTENT - 8));
      expect(exact.length).toBe(MAX_CONTENT);
      expect(await ok(await push(exact, { dryRun: true }))).toMatchObject({ rowCount: 1 });
      const over = oneValue("x".repeat(MAX_CONTENT - 7));
      expect(await expectError(await push(over, { dryRun: true }), 413)).toBe("Payload too large");
      expect(await refused(await push(over), 413)).toBe("Payload too large");
    });

    test("counts UTF-8 bytes, not UTF-16 units: multi-byte content under the limit in length but over in bytes → 413", async () => {
      // "é" is one UTF-16 unit and two UTF-8 bytes.
      const exact = oneValue("é".repeat((MAX_CONTENT - 8) / 2));
      expect(new TextEncoder().encode(exact).byteLength).toBe(MAX_CONTENT);
      expect(await ok(await push(exact, { dryRun: true }))).toMatchObject({ rowCount: 1 });
      const over = oneValue("é".repeat((MAX_CONTENT - 8) / 2 + 1));
      expect(over.length).toBeLessThan(MAX_CONTENT / 2 + 8);
      expect(await refused(await push(over), 413)).toBe("Payload too large");
      // "😀" is two UTF-16 units and four UTF-8 bytes.
      const astral = oneValue("😀".repeat(MAX_CONTENT / 4));
      expect(astral.length).toBeLessThan(MAX_CONTENT);
      await refused(await push(astral), 413);
    });

    test("more than 50,000 rows after flattening → 413; exactly 50,000 is fine", async () => {
      expect(await ok(await push(rows(50_000), { dryRun: true }))).toMatchObject({
        rowCount: 50_000,
        toCreate: 50_000,
      });
      expect(await refused(await push(rows(50_001)), 413)).toBe("Payload too large");
      await refused(await push(rows(50_001), { dryRun: true }), 413);
      // Rows counted after flattening: one array of 50,001 elements.
      await refused(await push({ list: Array.from({ length: 50_001 }, () => "v") }), 413);
    });

    test("a request body over 13 MiB with Content-Length → 413 Payload too large", async () => {
      const body = JSON.stringify({ content: oneValue("x".repeat(13 * MiB)), language: "fr", projectId });
      const res = await s.request("/api/v1/push", {
        method: "POST",
        key,
        body,
        headers: { "content-type": "application/json", "content-length": String(body.length) },
      });
      expect(await refused(res, 413)).toBe("Payload too large");
    });

    test("a chunked request body past 13 MiB → 413 without reading it whole", async () => {
      const chunk = new TextEncoder().encode("x".repeat(MiB));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode(`{"language":"fr","content":"`));
          if (sent >= 64 * MiB) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const res = await s.request("/api/v1/push", {
        method: "POST",
        key,
        body: stream,
        headers: { "content-type": "application/json" },
        duplex: "half",
      } as RequestInit & { key: string });
      expect(await refused(res, 413)).toBe("Payload too large");
      expect(sent).toBeLessThanOrEqual(15 * MiB);
    });
  });
});
