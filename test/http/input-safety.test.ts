/**
 * The one input path (issue 10): bodies read with a limit while streaming, strict UTF-8, JSON
 * whose prototype keys are only ever data, no repeated names, errors naming line and column;
 * 415 for other media types; one strict reader of integer query parameters; real calendar dates;
 * key names checked like every stored text. Each refusal is the Error object and changes nothing.
 */
import { describe, expect, test } from "bun:test";
import { forEachStore, type TestServer, useWorld, type World } from "../support/harness.ts";
import { expectErrorObject, formPost } from "../support/http.ts";

const KEYS = "/api/v1/api-keys";

await forEachStore((kind) => {
  let w: World;
  useWorld(kind, (world) => {
    w = world;
  });
  const s = (): TestServer => w.s;

  const raw = (path: string, body: BodyInit, contentType = "application/json", key = w.key) =>
    s().request(path, { method: "POST", key, headers: { "content-type": contentType }, body });
  const keyCount = async () => {
    const res = await s().request(`${KEYS}?limit=100`, { key: w.key });
    return ((await res.json()) as { pagination: { total: number } }).pagination.total;
  };
  const translations = async (language = "fr") => {
    const res = await s().request(
      `/api/v1/translations?project_id=${w.projectId}&language=${language}&limit=1000`,
      { key: w.key },
    );
    return ((await res.json()) as { data: unknown[] }).data;
  };

  describe("prototype keys are data", () => {
    test("a push whose only member is __proto__ is refused and writes nothing (finding 1)", async () => {
      const inner = JSON.stringify({ projectId: w.projectId, language: "fr", content: '{"a":"b"}' });
      const res = await raw("/api/v1/push", `{"__proto__":${inner}}`);
      const body = await expectErrorObject(res, 400, { message: "content" });
      expect(body.error).toMatch(/required/);
      await s().idle();
      expect(await translations()).toEqual([]);
    });

    test("an api-keys body cannot take its scopes from __proto__ (finding 2)", async () => {
      const before = await keyCount();
      const res = await raw(KEYS, '{"__proto__":{"scopes":["admin"]},"name":"x"}');
      await expectErrorObject(res, 400, { message: "scopes" });
      expect(await keyCount()).toBe(before);
    });

    test("__proto__, constructor and prototype at any depth change nothing but their own members", async () => {
      const body =
        '{"name":"plain","scopes":["export:read"],"constructor":{"prototype":{"scopes":["admin"]}},' +
        '"__proto__":{"rateLimit":1,"__proto__":{"expiresAt":"2000-01-01T00:00:00Z"}},"prototype":null}';
      const res = await raw(KEYS, body);
      expect(res.status).toBe(201);
      const created = (await res.json()) as {
        data: { scopes: string[]; rateLimit: number; expiresAt: null };
      };
      expect(created.data).toMatchObject({ scopes: ["export:read"], rateLimit: 1000, expiresAt: null });
      expect(({} as Record<string, unknown>).scopes).toBeUndefined();
      expect(({} as Record<string, unknown>).rateLimit).toBeUndefined();
    });

    test("a value whose own toString and valueOf are data is 400, not 500 (found by the fuzz test)", async () => {
      for (const body of [
        '{"name":{"toString":null,"valueOf":{"toString":1}},"scopes":["admin"]}',
        '{"name":"x","scopes":[{"toString":"a","valueOf":[]}]}',
      ]) {
        await expectErrorObject(await raw(KEYS, body), 400);
      }
      const push = `{"projectId":"${w.projectId}","language":"fr","content":"{}","importMode":{"toString":1,"valueOf":2}}`;
      await expectErrorObject(await raw("/api/v1/import", push), 400, { message: "importMode" });
    });

    test("push keys named __proto__ and constructor are ordinary keys of the content", async () => {
      const content = '{"__proto__":{"x":"1"},"constructor":{"prototype":"2"}}';
      const res = await s().request("/api/v1/push", {
        method: "POST",
        key: w.key,
        json: { projectId: w.projectId, language: "fr", content },
      });
      expect(res.status).toBe(202);
      await s().idle();
      const keys = ((await translations()) as { key: string }[]).map((r) => r.key).sort();
      expect(keys).toEqual(["__proto__.x", "constructor.prototype"]);
    });
  });

  describe("JSON is read strictly", () => {
    test("a member name repeated in one object is 400 naming it, with line and column", async () => {
      const before = await keyCount();
      const res = await raw(KEYS, '{"name":"a",\n "scopes":["admin"],\n "name":"b"}');
      const body = await expectErrorObject(res, 400, { message: '"name" appears twice' });
      expect(body.error).toContain("line 3, column 2");
      expect(await keyCount()).toBe(before);
    });

    test("invalid JSON is 400 naming the line and column", async () => {
      const res = await raw("/api/v1/push", '{\n  "content": "{}",\n  "language": fr\n}');
      await expectErrorObject(res, 400, { message: "line 3, column 15" });
      const tail = await raw("/api/v1/push", '{"content":"{}",}');
      await expectErrorObject(tail, 400, { message: "line 1, column 17" });
    });

    test("invalid JSON inside content is 400 naming its line and column", async () => {
      const content = '{\n  "a": "x",\n  "b": oops\n}';
      const res = await s().request("/api/v1/push", {
        method: "POST",
        key: w.key,
        json: { projectId: w.projectId, language: "fr", content },
      });
      await expectErrorObject(res, 400, { message: "line 3, column 8" });
    });

    test("a body that is not UTF-8 is 400", async () => {
      const bytes = new Uint8Array([
        ...new TextEncoder().encode('{"name":"'),
        0xff,
        0xfe,
        ...new TextEncoder().encode('"}'),
      ]);
      const res = await raw(KEYS, bytes);
      await expectErrorObject(res, 400, { message: "not valid UTF-8" });
    });

    test("nesting deeper than 64 levels is 400", async () => {
      const res = await raw(KEYS, `${"[".repeat(100)}${"]".repeat(100)}`);
      await expectErrorObject(res, 400, { message: "nested more than 64" });
    });
  });

  describe("bodies are read with a limit", () => {
    test("a streamed 1 GB body is refused (413) after at most the limit was read", async () => {
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      let pulled = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 1024 * 1024 * 1024) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const request = new Request("http://localhost/api/v1/push", {
        method: "POST",
        headers: { authorization: `Bearer ${w.key}`, "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      const res = await s().app.handle(request);
      await expectErrorObject(res, 413, { message: "Payload too large" });
      expect(pulled).toBeLessThanOrEqual(13 * 1024 * 1024 + 4 * chunk.byteLength);
    });

    test("a declared Content-Length over the limit is refused before reading", async () => {
      const res = await s().request("/api/v1/push", {
        method: "POST",
        key: w.key,
        headers: { "content-type": "application/json", "content-length": String(1024 ** 3) },
        body: "{}",
      });
      expect(res.status).toBe(413);
    });
  });

  describe("media types", () => {
    test("a push or key creation in another media type is 415 naming application/json", async () => {
      const form = new URLSearchParams({ projectId: w.projectId, language: "fr", content: '{"a":"b"}' });
      for (const [path, type, body] of [
        ["/api/v1/push", "application/x-www-form-urlencoded", form.toString()],
        [
          "/api/v1/push",
          "text/plain",
          JSON.stringify({ projectId: w.projectId, language: "fr", content: "{}" }),
        ],
        ["/api/v1/import", "multipart/form-data; boundary=x", "--x--"],
        [KEYS, "application/xml", "<key/>"],
      ] as const) {
        const res = await raw(path, body, type);
        expect({ path, type, status: res.status }).toEqual({ path, type, status: 415 });
        await expectErrorObject(res, 415, { message: "application/json" });
      }
      await s().idle();
      expect(await translations()).toEqual([]);
    });

    test("application/json with a charset, and +json types, are JSON", async () => {
      const json = JSON.stringify({
        projectId: w.projectId,
        language: "fr",
        content: '{"a":"b"}',
        dryRun: true,
      });
      expect((await raw("/api/v1/push", json, "application/json; charset=utf-8")).status).toBe(200);
      expect((await raw("/api/v1/push", json, "application/merge-patch+json")).status).toBe(200);
    });

    test("a compressed body is 415 naming the content coding, not a complaint about its bytes", async () => {
      const json = JSON.stringify({ projectId: w.projectId, language: "fr", content: '{"a":"b"}' });
      for (const [path, type, body] of [
        ["/api/v1/push", "application/json", Bun.gzipSync(json)],
        [KEYS, "application/json", Bun.gzipSync('{"name":"z","scopes":["admin"]}')],
        [
          "/api/v1/auth/token",
          "application/x-www-form-urlencoded",
          Bun.gzipSync(`grant_type=client_credentials&client_secret=${w.key}`),
        ],
      ] as const) {
        const res = await s().request(path, {
          method: "POST",
          key: w.key,
          headers: { "content-type": type, "content-encoding": "gzip" },
          body,
        });
        await expectErrorObject(res, 415, { message: "Content-Encoding gzip" });
      }
      const identity = await s().request("/api/v1/push", {
        method: "POST",
        key: w.key,
        headers: { "content-type": "application/json", "content-encoding": "identity" },
        body: json,
      });
      expect(identity.status).toBe(202);
      await s().idle();
      expect(((await translations()) as { key: string }[]).map((r) => r.key)).toEqual(["a"]);
    });

    test("a key without the scope gets 403, not 415", async () => {
      const reader = await s().seed.key(w.orgId, { scopes: ["translations:read"] });
      const res = await raw("/api/v1/push", "a=b", "application/x-www-form-urlencoded", reader.key);
      await expectErrorObject(res, 403);
    });
  });

  describe("the token endpoint (RFC 6749)", () => {
    const TOKEN = "/api/v1/auth/token";
    test("a repeated parameter is invalid_request (§3.2)", async () => {
      for (const body of [
        `grant_type=client_credentials&client_secret=${w.key}&client_secret=${w.key}`,
        `grant_type=client_credentials&grant_type=client_credentials&client_secret=${w.key}`,
        `grant_type=client_credentials&client_secret=${w.key}&scope=admin&scope=admin`,
      ]) {
        const repeated = await s().request(TOKEN, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        });
        const json = (await repeated.json()) as { error: string; error_description: string };
        expect({ status: repeated.status, error: json.error }).toEqual({
          status: 400,
          error: "invalid_request",
        });
        expect(json.error_description).toContain("more than once");
      }
    });

    test("a body over 8 KiB is 413 without reading it", async () => {
      const res = await s().request(
        TOKEN,
        formPost({ grant_type: "client_credentials", client_secret: w.key, pad: "x".repeat(9000) }),
      );
      await expectErrorObject(res, 413);
    });

    test("a failed Basic login is challenged with Basic, a failed body login with Bearer", async () => {
      const basic = `Basic ${btoa(`id:pl_${"0".repeat(64)}`)}`;
      const res = await s().request(
        TOKEN,
        formPost({ grant_type: "client_credentials" }, { authorization: basic }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="parlance"');
      const body = await s().request(
        TOKEN,
        formPost({ grant_type: "client_credentials", client_secret: "pl_x" }),
      );
      expect(body.status).toBe(401);
      expect(body.headers.get("www-authenticate")).toBe('Bearer realm="parlance"');
    });

    test("a body of another media type is 415 naming the form type", async () => {
      const res = await s().request(TOKEN, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "grant_type=client_credentials",
      });
      await expectErrorObject(res, 415, { message: "application/x-www-form-urlencoded" });
    });
  });

  describe("integer query parameters", () => {
    const bad = [
      "99999999999999999999",
      "9223372036854775807",
      "1e20",
      "1e2",
      "0x10",
      "5.0",
      "-0",
      "-1",
      "",
      " 5",
      "+5",
      "５",
    ];
    for (const param of ["limit", "offset"]) {
      test(`${param}: only decimal digits in range; anything else is 400 naming it`, async () => {
        const paths = [KEYS, `/api/v1/translations?project_id=${w.projectId}&language=fr`];
        for (const path of paths) {
          for (const value of bad) {
            const sep = path.includes("?") ? "&" : "?";
            const res = await s().request(`${path}${sep}${param}=${encodeURIComponent(value)}`, {
              key: w.key,
            });
            expect({ path, value, status: res.status }).toEqual({ path, value, status: 400 });
            await expectErrorObject(res, 400, { message: `query parameter ${param}` });
          }
          const ok = await s().request(`${path}${path.includes("?") ? "&" : "?"}${param}=05`, { key: w.key });
          expect(ok.status).toBe(200);
        }
      });
    }
  });

  describe("query parameters given twice", () => {
    test("are 400 naming the parameter (also percent-encoded), after 401 and 403, on every operation", async () => {
      const p = `project_id=${w.projectId}`;
      for (const [path, name] of [
        [`${KEYS}?limit=5&limit=1`, "limit"],
        [`${KEYS}?offset=0&%6Fffset=0`, "offset"],
        [`/api/v1/translations?${p}&language=fr&language=de`, "language"],
        [`/api/v1/translations?${p}&${p}&language=fr`, "project_id"],
        [`/api/v1/pull?${p}&language=en&format=json&format=csv`, "format"],
        [`/api/v1/export?${p}&${p}&language=en`, "project_id"],
        [`/api/v1/coverage?${p}&${p}`, "project_id"],
        [`/api/v1/project?${p}&${p}`, "project_id"],
        [`/api/v1/projects?x=1&x=2`, "x"],
        [`/api/v1/jobs/${crypto.randomUUID()}?x&x`, "x"],
        [`/api/v1/test?x=1&x=1`, "x"],
      ] as const) {
        const res = await s().request(path, { key: w.key });
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        await expectErrorObject(res, 400, { message: `"${name}" appears more than once` });
      }
      const push = await s().request("/api/v1/push?dry=1&dry=2", {
        method: "POST",
        key: w.key,
        json: { projectId: w.projectId, language: "fr", content: '{"a":"b"}' },
      });
      await expectErrorObject(push, 400, { message: '"dry" appears more than once' });
      await s().idle();
      expect(await translations()).toEqual([]);
      // Who may not call the operation learns nothing about its query.
      await expectErrorObject(await s().request(`${KEYS}?limit=5&limit=1`), 401);
      const reader = await s().seed.key(w.orgId, { scopes: ["translations:read"] });
      await expectErrorObject(await s().request(`${KEYS}?limit=5&limit=1`, { key: reader.key }), 403);
      // Distinct parameters, and one given once, are as before.
      expect((await s().request(`${KEYS}?limit=5&offset=0`, { key: w.key })).status).toBe(200);
    });
  });

  describe("dates and names", () => {
    test("expiresAt must be a real calendar date", async () => {
      for (const expiresAt of [
        "2099-02-30T00:00:00Z",
        "2099-02-29T00:00:00Z",
        "2099-13-01T00:00:00Z",
        "2099-04-31T00:00:00Z",
        "2099-01-01T24:00:00Z",
        "2099-01-01",
      ]) {
        const res = await s().request(KEYS, {
          method: "POST",
          key: w.key,
          json: { name: `n${expiresAt}`, scopes: ["admin"], expiresAt },
        });
        expect({ expiresAt, status: res.status }).toEqual({ expiresAt, status: 400 });
        await expectErrorObject(res, 400, { message: "expiresAt" });
      }
      const leap = await s().request(KEYS, {
        method: "POST",
        key: w.key,
        json: { name: "leap", scopes: ["admin"], expiresAt: "2028-02-29T10:00:00+02:00" },
      });
      expect(leap.status).toBe(201);
      expect(((await leap.json()) as { data: { expiresAt: string } }).data.expiresAt).toBe(
        "2028-02-29T08:00:00.000Z",
      );
    });

    test("a key name with a character no store can carry is 400 naming its code point", async () => {
      const before = await keyCount();
      for (const [name, point] of [
        ["a\u0000b", "U+0000"],
        ["x\ud800", "U+D800"],
        ["bell\u0007", "U+0007"],
        ["\uffff", "U+FFFF"],
      ] as const) {
        const res = await s().request(KEYS, {
          method: "POST",
          key: w.key,
          json: { name, scopes: ["admin"] },
        });
        await expectErrorObject(res, 400, { message: point });
      }
      expect(await keyCount()).toBe(before);
    });
  });

  describe("messages that say what to do", () => {
    test("a character no export can carry is named by code point and key", async () => {
      const res = await s().request("/api/v1/push", {
        method: "POST",
        key: w.key,
        json: { projectId: w.projectId, language: "fr", content: JSON.stringify({ greeting: "hi\u0001" }) },
      });
      const body = await expectErrorObject(res, 400, { message: "U+0001" });
      expect(body.error).toContain('"greeting"');
    });

    test("a wrong API key is told about the API key", async () => {
      for (const token of ["pl_0123", `pl_${"a".repeat(64)}`, "not-a-key"]) {
        const res = await s().request("/api/v1/test", { key: token });
        const body = await expectErrorObject(res, 401);
        expect(body.error).toContain("API key");
        expect(body.error).not.toBe("Invalid access token");
      }
    });
  });
});

describe("development details", () => {
  test("a 413 for rows or bytes gives the figure and the limit; validation details speak to the user", async () => {
    const { startTestServer } = await import("../support/harness.ts");
    const dev = await startTestServer("memory", { development: true });
    try {
      const { project, key } = await dev.seed.world();
      const rows: Record<string, string> = {};
      for (let i = 0; i < 50_001; i++) rows[`k${i}`] = "v";
      const res = await dev.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        json: { projectId: project.id, language: "fr", content: JSON.stringify(rows) },
      });
      const body = await expectErrorObject(res, 413, { details: true });
      expect(body.error).toBe("Payload too large");
      expect(body.details).toContain("50,001 rows");
      expect(body.details).toContain("50,000");
      const big = await dev.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        headers: { "content-type": "application/json", "content-length": String(2 ** 30) },
        body: "{}",
      });
      const bigBody = await expectErrorObject(big, 413, { details: true });
      expect(bigBody.details).toContain("1,073,741,824 bytes");
      expect(bigBody.details).toContain("13,631,488 bytes");
      const invalid = await dev.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        json: { content: 5 },
      });
      const detail = await expectErrorObject(invalid, 400, { details: true });
      expect(detail.details).not.toMatch(/TypeBox|"type"|ValidationError|\[object/);
      expect(detail.details).toContain("content");
      const core = await dev.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        json: { projectId: project.id, language: "xx", content: "{}" },
      });
      await expectErrorObject(core, 400, { details: true });
    } finally {
      await dev.close();
    }
  });
});
