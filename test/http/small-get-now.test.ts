import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject, expectRateHeaders } from "../support/http.ts";

/**
 * The small GET decided without waiting (issue 13): when the store holds the key and project in
 * memory and the limiter the window, `admitNow` and `getProjectNow` answer, and what they answer is
 * what the asynchronous path would: a key deactivated or out of requests is refused, a deleted or
 * foreign project is 404, refusals are not counted.
 */
await forEachStore((kind) => {
  let s: TestServer;
  let world: Awaited<ReturnType<TestServer["seed"]["world"]>>;
  let reader: SeededKey;
  beforeEach(async () => {
    s = await startTestServer(kind);
    world = await s.seed.world();
    reader = await s.seed.key(world.orgId, { scopes: ["translations:read"], rateLimit: 3 });
  });
  afterEach(() => s.close());

  const project = () => s.request(`/api/v1/project?project_id=${world.project.id}`, { key: reader.key });
  const usageOf = async (id: string) => {
    const res = await s.request("/api/v1/api-keys?limit=100", { key: world.key.key });
    const list = (await res.json()) as { data: { id: string; usageCount: number }[] };
    return list.data.find((k) => k.id === id)?.usageCount;
  };

  test("a key the store holds is admitted without waiting, and its project read the same way", async () => {
    expect((await project()).status).toBe(200);
    const caller = { authorization: `Bearer ${reader.key}`, address: () => "192.0.2.1" };
    const admission = s.parlance.admitNow(caller);
    // Postgres takes its first leases one request at a time, so it may still have to wait here.
    if (kind !== "postgres") expect(admission?.principal?.key.id).toBe(reader.id);
    if (admission?.principal) {
      expect(s.parlance.getProjectNow(admission.principal, world.project.id)).toEqual(world.project);
      expect(() => s.parlance.getProjectNow(admission.principal as never, "nope")).toThrow("UUID");
    }
  });

  test("a key deactivated after being read is refused at its next request", async () => {
    expect((await project()).status).toBe(200);
    await s.parlance.admin.deactivateKey(reader.id);
    await expectErrorObject(await project(), 401, { message: "This API key is inactive" });
  });

  test("a key out of requests is refused (429) and the refusal is not counted", async () => {
    for (let remaining = 2; remaining >= 0; remaining--)
      expectRateHeaders(await project(), { limit: 3, remaining });
    const refused = await project();
    expectRateHeaders(refused, { limit: 3, remaining: 0 });
    await expectErrorObject(refused, 429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(await usageOf(reader.id)).toBe(3);
  });

  test("a project deleted after being read is 404, and so is another organization's", async () => {
    expect((await project()).status).toBe(200);
    const other = await s.seed.org("Other");
    const foreign = await s.seed.project(other.id);
    const res = await s.request(`/api/v1/project?project_id=${foreign.id}`, { key: reader.key });
    await expectErrorObject(res, 404);
    await s.parlance.admin.deleteProject(world.project.id);
    await expectErrorObject(await project(), 404);
  });
});
