/**
 * `serve` wires its app to the runtime: every request it takes in is noted in the runtime's traffic,
 * which the collection after imports asks before pausing the event loop (server/traffic.ts).
 */
import { expect, spyOn, test } from "bun:test";
import { SCOPES } from "../../core/types.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { COLLECT_AFTER_BODY_BYTES } from "../../server/push-body.ts";
import { openRuntime, QUIET_REQUESTS } from "../../server/runtime.ts";
import { serverFor } from "../../server/serve.ts";
import type { Traffic } from "../../server/traffic.ts";

test("every request the served app takes in, answered or refused, is noted in the runtime's traffic", async () => {
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  let noted = 0;
  const traffic: Traffic = {
    note: () => void noted++,
    lighterThan: () => false,
    arrivedFewerThan: () => false,
  };
  try {
    const app = serverFor({ ...runtime, traffic }, config, () => {}, bunHost);
    const statuses = [];
    for (const path of ["/healthz", "/api/v1/project?project_id=x", "/nowhere"])
      statuses.push((await app.handle(new Request(`http://localhost${path}`))).status);
    expect(statuses).toEqual([200, 401, 404]);
    expect(noted).toBe(3);
  } finally {
    await runtime.close();
  }
});

test("the Bun host frees a released push's memory with a collection that keeps compiled code, and takes bodies whole", async () => {
  // Bun.shrink() would discard every compiled function before the 202 is written: the push's job
  // then compiled it all again (docs/benchmarks.md, "Push memory, seventh pass").
  const shrink = spyOn(Bun, "shrink");
  const gc = spyOn(Bun, "gc");
  try {
    bunHost.returnFreeMemory?.();
    expect(shrink).not.toHaveBeenCalled();
    expect(gc).toHaveBeenCalledWith(true);
  } finally {
    shrink.mockRestore();
    gc.mockRestore();
  }
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  try {
    const app = serverFor(runtime, config, () => {}, bunHost);
    const org = await runtime.parlance.admin.createOrg("Org");
    const key = await runtime.parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const body = JSON.stringify({ projectId: crypto.randomUUID(), language: "fr", content: "{}" });
    const request = new Request("http://localhost/api/v1/push", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        authorization: `Bearer ${key.key}`,
      },
      body,
    });
    let whole = 0;
    const arrayBuffer = request.arrayBuffer.bind(request);
    request.arrayBuffer = () => {
      whole++;
      return arrayBuffer();
    };
    expect((await app.handle(request)).status).toBe(404); // read whole, parsed: no such project
    expect(whole).toBe(1);
  } finally {
    await runtime.close();
  }
});

test("the collection at a large push's answer runs under light traffic only", async () => {
  // It pauses the event loop, as the collection after imports does: under a load of small requests
  // that pause would set their p99 (server/serve.ts, whenQuiet).
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  let collections = 0;
  try {
    const app = serverFor(runtime, config, () => {}, {
      ...bunHost,
      returnFreeMemory: () => void collections++,
    });
    const org = await runtime.parlance.admin.createOrg("Org");
    const key = await runtime.parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const content = JSON.stringify({ a: "x".repeat(COLLECT_AFTER_BODY_BYTES) });
    const push = async () => {
      const request = new Request("http://localhost/api/v1/push", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ projectId: crypto.randomUUID(), language: "fr", content }),
      });
      expect((await app.handle(request)).status).toBe(404); // read, released: no such project
    };
    await push();
    expect(collections).toBe(1);
    for (let i = 0; i < QUIET_REQUESTS; i++) runtime.traffic.note(); // a busy server's last moments
    await push();
    expect(collections).toBe(1);
  } finally {
    await runtime.close();
  }
});
