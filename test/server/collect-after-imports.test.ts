/**
 * The server collects garbage after import jobs (server/collect-after-imports.ts): once soon after a
 * job ends, completed or failed, and at most once per interval however many end in it, except
 * after a large import; never again once a collection elsewhere ran after the last job ended.
 */

import { expect, test } from "bun:test";
import { collectAfterImports } from "../../server/collect-after-imports.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { embeddedProject } from "../support/embedded-project.ts";

async function world() {
  const { parlance, org, project, app } = await embeddedProject(createMemoryStorage(), ["fr"]);
  const push = async (content: string) => {
    await app.push({ projectId: project.id, language: "en", content });
    await parlance.idle();
  };
  return { parlance, push, orgId: org.id, projectId: project.id };
}

test("one collection after a job completes, and one after a job fails", async () => {
  const { parlance, push, orgId, projectId } = await world();
  let collections = 0;
  const stop = collectAfterImports(parlance, () => collections++, { everyMs: 0 });
  await push(JSON.stringify({ a: "One" }));
  await Bun.sleep(20);
  expect(collections).toBe(1);
  // A project deleted between the 202 and the job's run fails the job.
  const failed: string[] = [];
  parlance.on("job.failed", (e) => void failed.push(e.message));
  const app = parlance.as(orgId);
  await app.push({ projectId, language: "en", content: JSON.stringify({ b: "Two" }) });
  await parlance.admin.deleteProject(projectId);
  await parlance.idle();
  await Bun.sleep(20);
  expect(failed.length).toBe(1);
  expect(collections).toBe(2);
  stop();
  await parlance.close();
});

test("jobs ending within the interval share one later collection; stopping drops one not yet run", async () => {
  const { parlance, push } = await world();
  let collections = 0;
  const stop = collectAfterImports(parlance, () => collections++, { everyMs: 300 });
  await push(JSON.stringify({ a: "One" }));
  await Bun.sleep(20);
  expect(collections).toBe(1);
  await push(JSON.stringify({ b: "Two" }));
  await push(JSON.stringify({ c: "Three" }));
  await Bun.sleep(20);
  expect(collections).toBe(1);
  await Bun.sleep(400);
  expect(collections).toBe(2);
  await push(JSON.stringify({ d: "Four" }));
  stop();
  await Bun.sleep(400);
  expect(collections).toBe(2);
  await parlance.close();
});

test("a collection waits for a quiet moment, and is dropped when none comes in time", async () => {
  const { parlance, push } = await world();
  let collections = 0;
  let quiet = false;
  const stop = collectAfterImports(parlance, () => collections++, {
    everyMs: 0,
    quiet: () => quiet,
    quietWaitMs: 300,
  });
  await push(JSON.stringify({ a: "One" }));
  await Bun.sleep(100);
  expect(collections).toBe(0);
  quiet = true;
  await Bun.sleep(100);
  expect(collections).toBe(1);
  quiet = false;
  await push(JSON.stringify({ b: "Two" }));
  await Bun.sleep(450);
  quiet = true;
  await Bun.sleep(100);
  expect(collections).toBe(1);
  stop();
  await parlance.close();
});

test("a large import collects at once, without waiting out the interval", async () => {
  const { parlance, push } = await world();
  let collections = 0;
  const stop = collectAfterImports(parlance, () => collections++, { everyMs: 10_000, largeImportRows: 3 });
  await push(JSON.stringify({ a: "One" }));
  await Bun.sleep(20);
  expect(collections).toBe(1);
  // Two rows: small, so it waits out the interval.
  await push(JSON.stringify({ b: "Two", c: "Three" }));
  await Bun.sleep(50);
  expect(collections).toBe(1);
  // Three rows written: large, so it runs now, and takes the small one's place.
  await push(JSON.stringify({ d: "Four", e: "Five", f: "Six" }));
  await Bun.sleep(50);
  expect(collections).toBe(2);
  stop();
  await parlance.close();
});

test("a collection waiting for its turn is dropped once one ran elsewhere after the last job ended", async () => {
  const { parlance, push } = await world();
  let collections = 0;
  let elsewhere = Number.NEGATIVE_INFINITY;
  let quiet = false;
  const stop = collectAfterImports(parlance, () => collections++, {
    everyMs: 0,
    quiet: () => quiet,
    collectedElsewhereAt: () => elsewhere,
  });
  // One elsewhere before the job ended frees nothing of the job's: the collection still runs.
  elsewhere = performance.now();
  await push(JSON.stringify({ a: "One" }));
  quiet = true;
  await Bun.sleep(60);
  expect(collections).toBe(1);
  // One elsewhere after the job ended (a push's answer) takes the waiting collection's place.
  quiet = false;
  await push(JSON.stringify({ b: "Two" }));
  await Bun.sleep(10);
  elsewhere = performance.now();
  quiet = true;
  await Bun.sleep(60);
  expect(collections).toBe(1);
  stop();
  await parlance.close();
});
