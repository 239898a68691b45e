/**
 * `serve` wires its app to the runtime: every request it takes in is noted in the runtime's traffic,
 * which the collection after imports asks before pausing the event loop (server/traffic.ts).
 */
import { expect, test } from "bun:test";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { openRuntime } from "../../server/runtime.ts";
import { serverFor } from "../../server/serve.ts";
import type { Traffic } from "../../server/traffic.ts";

test("every request the served app takes in, answered or refused, is noted in the runtime's traffic", async () => {
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  let noted = 0;
  const traffic: Traffic = { note: () => void noted++, lighterThan: () => false };
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
