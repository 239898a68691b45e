/**
 * Property-based fuzzing of every endpoint (issue 10): whatever the parameters, headers and body,
 * Parlance answers below 500, every error is the Error object (the token endpoint's own errors:
 * RFC 6749's shape), every answer matches the OpenAPI document (the harness checks it), and a
 * refused request changes no stored translation, key or job.
 * Each store is fuzzed twice: through the app as every HTTP suite drives it, and over a socket to
 * the app listening as `parlance serve` makes it listen (Bun's HTTP parser, streamed bodies, the
 * client address), its answers checked against the document as well.
 * The default run is short; `bun run fuzz` runs 10,000 cases per store (PARLANCE_FUZZ_RUNS).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { bunHost } from "../../server/host-bun.ts";
import { type FuzzRequest, fuzzRequest, type Targets } from "../fuzz/requests.ts";
import { fuzzStores } from "../fuzz/stores.ts";
import { expectConformance } from "../support/conformance.ts";
import { BASE_URL, startTestServer, type TestServer } from "../support/harness.ts";
import { ISO_DATE } from "../support/http.ts";

const RUNS = Number(process.env.PARLANCE_FUZZ_RUNS ?? 200);
const SEED = process.env.PARLANCE_FUZZ_SEED ? Number(process.env.PARLANCE_FUZZ_SEED) : undefined;
const STORES = await fuzzStores();

async function seed(
  s: TestServer,
): Promise<{ targets: Targets; orgId: string; state: () => Promise<unknown> }> {
  const org = await s.seed.org();
  const project = await s.seed.project(org.id);
  const key = await s.seed.key(org.id, { rateLimit: 10000 });
  const other = await s.seed.key((await s.seed.org()).id, { rateLimit: 10000 });
  const pushed = await s.request("/api/v1/push", {
    method: "POST",
    key: key.key,
    json: { projectId: project.id, language: "en", content: '{"greeting":"hello","nested":{"a":"b"}}' },
  });
  const { jobId } = (await pushed.json()) as { jobId: string };
  await s.idle();
  const rows = await s.parlance.storage.translations.readLanguage(project.id, "en");
  const token = await s.parlance.requestToken(
    { grantType: "client_credentials", clientSecret: key.key },
    "fuzz",
  );
  if (!token.ok) throw new Error("no token");
  const state = async () => {
    const languages: Record<string, unknown> = {};
    for (const language of ["en", "fr", "de"]) {
      const held = await s.parlance.storage.translations.readLanguage(project.id, language);
      languages[language] = [...held].map((r) => JSON.stringify(r)).sort();
    }
    const keys = await s.parlance.storage.keys.listByOrg(org.id, 1000, 0);
    const job = await s.parlance.storage.jobs.get(jobId);
    return {
      languages,
      keys: keys.items.map((k) => [k.id, k.name, k.scopes, k.active, k.rateLimit, k.expiresAt]),
      total: keys.total,
      job: job && [job.status, job.summary],
    };
  };
  return {
    orgId: org.id,
    state,
    targets: {
      projectId: project.id,
      jobId,
      translationId: [...rows.values()][0]?.id ?? crypto.randomUUID(),
      key: key.key,
      token: token.body.access_token,
      otherOrgKey: other.key,
    },
  };
}

type Transport = "app" | "socket";
type Send = (r: FuzzRequest) => Promise<Response>;

/** How a generated request reaches the server, and how that is undone. */
async function transport(s: TestServer, how: Transport): Promise<{ send: Send; close: () => Promise<void> }> {
  const init = (r: FuzzRequest) => ({
    method: r.method,
    headers: r.headers,
    body: r.body as BodyInit | undefined,
  });
  if (how === "app") return { send: (r) => s.request(r.path, init(r)), close: async () => {} };
  // The app listening as `parlance serve` makes it listen on Bun.
  const listening = await bunHost.listen(s.app, "127.0.0.1", 0, false);
  return {
    async send(r) {
      const res = await fetch(`http://127.0.0.1:${listening.port}${r.path}`, init(r));
      const sent = new Request(`${BASE_URL}${r.path}`, { method: r.method, headers: r.headers });
      await expectConformance(s.app, sent, res.clone());
      return res;
    },
    close: () => listening.stop(),
  };
}

for (const kind of STORES) {
  describe(`[${kind}]`, () => {
    for (const how of ["app", "socket"] as const) {
      test(
        `${RUNS} hostile requests (${how}): no 5xx, always the Error object, nothing changed by a refusal`,
        async () => {
          const s = await startTestServer(kind, { anonRateLimit: 10_000_000 });
          const { send, close } = await transport(s, how);
          const statuses = new Map<number, number>();
          try {
            const { targets, state } = await seed(s);
            let before = await state();
            let n = 0;
            await fc.assert(
              fc.asyncProperty(fuzzRequest(targets), async (r) => {
                // A fresh rate window now and then: the key's hourly limit must not hide the handlers.
                if (++n % 2000 === 0) s.clock.advance(3_600_000);
                const res = await send(r);
                statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
                const text = await res.text();
                const where = `${r.method} ${r.path.slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
                expect({ where, serverError: res.status >= 500 }).toEqual({ where, serverError: false });
                await s.idle();
                if (res.status >= 400) {
                  const body = JSON.parse(text) as Record<string, unknown>;
                  expect(typeof body.error).toBe("string");
                  expect(body.timestamp).toMatch(ISO_DATE);
                  expect({ where, state: await state() }).toEqual({ where, state: before });
                } else before = await state();
              }),
              { numRuns: RUNS, seed: SEED, endOnFailure: RUNS > 1000 },
            );
          } finally {
            const summary = [...statuses]
              .sort(([a], [b]) => a - b)
              .map(([status, count]) => `${status}: ${count}`);
            console.log(`[${kind}] ${how} fuzz statuses after ${RUNS} runs: ${summary.join(", ")}`);
            close();
            await s.close();
          }
        },
        60_000 + RUNS * 200,
      );
    }
  });
}
