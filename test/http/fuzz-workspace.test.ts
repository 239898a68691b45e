/**
 * Property-based fuzzing of the workspace API (/api/workspace), every operation its OpenAPI
 * document lists: a signed-in owner sends hostile path parameters, query parameters and bodies.
 * Parlance answers below 500 with the Error object on every error. `bun run fuzz` runs it longer.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { fuzzStores } from "../fuzz/stores.ts";
import { startTestServer } from "../support/harness.ts";
import { ISO_DATE } from "../support/http.ts";
import { type SignedInClient, signedIn } from "../support/signed-in.ts";

const RUNS = Math.ceil(Number(process.env.PARLANCE_FUZZ_RUNS ?? 200) / 2);
const SEED = process.env.PARLANCE_FUZZ_SEED ? Number(process.env.PARLANCE_FUZZ_SEED) : undefined;
const STORES = await fuzzStores();

// biome-ignore lint/suspicious/noExplicitAny: the document is walked structurally
type Doc = any;
interface Operation {
  method: string;
  path: string;
  query: string[];
  body: Record<string, { type?: string }> | null;
}

const HOSTILE = [
  "",
  "__proto__",
  "constructor",
  "\u0000",
  "\ud800",
  "' OR 1=1 --",
  "x".repeat(5000),
  "1e20",
  "-1",
  "0x10",
  "99999999999999999999",
  "2099-02-30T00:00:00Z",
  "../x",
  "fr",
  "en",
  "true",
];
const hostileString = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 }));
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(fc.constantFrom("__proto__", "constructor", "toString"), hostileString),
      tie("v"),
      {
        maxKeys: 3,
      },
    ),
  ),
})).v;

function operationsOf(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
    for (const [method, op] of Object.entries(item)) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p: Doc) => p.in === "query").map((p: Doc) => p.name),
        body: schema?.properties ?? (schema ? {} : null),
      });
    }
  }
  return out;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const encode = (s: string) =>
  s
    .split(LONE)
    .map((p) => encodeURIComponent(p))
    .join("%ED%A0%80");

for (const kind of STORES) {
  describe(`[${kind}]`, () => {
    test(
      `${RUNS} hostile workspace requests: no 5xx, always the Error object`,
      async () => {
        const s = await startTestServer(kind);
        const statuses = new Map<number, number>();
        try {
          const { orgId, project, key } = await s.seed.world();
          let owner: SignedInClient = await signedIn(s, { orgId, role: "owner" });
          const doc = await (await owner.fetch("/api/workspace/openapi.json")).json();
          const operations = operationsOf(doc).filter((o) => !o.path.endsWith("openapi.json"));
          const ids: Record<string, string[]> = {
            orgId: [orgId],
            projectId: [project.id],
            userId: [owner.user.id],
            keyId: [key.id],
          };
          const request = fc.constantFrom(...operations).chain((op) =>
            fc.record({
              op: fc.constant(op),
              params: fc.dictionary(
                fc.constantFrom(...(op.path.match(/\{(\w+)\}/g) ?? ["{none}"])),
                fc.oneof(
                  {
                    weight: 3,
                    arbitrary: fc.constantFrom(...(ids[/\{(\w+)\}/.exec(op.path)?.[1] ?? ""] ?? ["x"])),
                  },
                  { weight: 1, arbitrary: hostileString },
                ),
              ),
              query: op.query.length
                ? fc.dictionary(fc.constantFrom(...op.query), hostileString, { maxKeys: 3 })
                : fc.constant({}),
              body: op.body
                ? fc.oneof(
                    {
                      weight: 4,
                      arbitrary: fc
                        .record(
                          Object.fromEntries(Object.keys(op.body).map((name) => [name, hostileValue])),
                          { requiredKeys: [] },
                        )
                        .map((b) => JSON.stringify(b)),
                    },
                    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? "null") },
                    {
                      weight: 1,
                      arbitrary: fc.constantFrom('{"a":1,"a":2}', "{", "", '{"__proto__":{"role":"owner"}}'),
                    },
                  )
                : fc.constant(undefined),
              contentType: fc.constantFrom(
                "application/json",
                "application/json",
                "application/json",
                "text/plain",
              ),
            }),
          );
          await fc.assert(
            fc.asyncProperty(request, async ({ op, params, query, body, contentType }) => {
              let path = op.path;
              for (const name of op.path.match(/\{(\w+)\}/g) ?? []) {
                path = path.replace(name, encode(params[name] ?? ids[name.slice(1, -1)]?.[0] ?? "x"));
              }
              const q = Object.entries(query).map(([k, v]) => `${encode(k)}=${encode(String(v))}`);
              if (q.length) path += `?${q.join("&")}`;
              const init: Record<string, unknown> = { method: op.method };
              if (body !== undefined) {
                init.body = body;
                init.headers = { "content-type": contentType };
              }
              const res = await owner.fetch(path, init);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              const text = await res.text();
              const where = `${op.method} ${path.slice(0, 200)} ${String(body).slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
              expect({ where, serverError: res.status >= 500 }).toEqual({ where, serverError: false });
              if (res.status >= 400) {
                const error = JSON.parse(text) as Record<string, unknown>;
                expect({ where, error: typeof error.error }).toEqual({ where, error: "string" });
                expect(error.timestamp).toMatch(ISO_DATE);
              }
              // The session may have been ended by the request itself (sign-out, password change).
              // Past the sign-in throttle's 15-minute window first: the harness's clock only moves when told.
              if (res.status === 401) {
                s.clock.advance(16 * 60_000);
                owner = await signedIn(s, { orgId, role: "owner" });
              }
              await s.idle();
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: RUNS > 1000 },
          );
        } finally {
          const summary = [...statuses].sort(([a], [b]) => a - b).map(([st, n]) => `${st}: ${n}`);
          console.log(`[${kind}] workspace fuzz statuses after ${RUNS} runs: ${summary.join(", ")}`);
          await s.close();
        }
      },
      60_000 + RUNS * 300,
    );
  });
}
