/**
 * The API's fetch handler mounted under /i18n in a Hono app, beside the app's own routes. Hono's
 * `mount` strips the prefix, so the API sees the paths it was written for; `basePath` tells it what
 * browsers see, so the docs page at /i18n/api/v1/docs loads its files from there. Runs on any runtime:
 * the script sends requests with `app.request`; `export default app` would serve it on Bun or Deno.
 *
 *   bun examples/fetch-hono.ts     node examples/fetch-hono.ts     deno run -A examples/fetch-hono.ts
 */
import { Hono } from "hono";
import { mount } from "hono/mount";
import { createParlance } from "parlance-tms";
import { createFetchHandler } from "parlance-tms/server";
import { createMemoryStorage } from "parlance-tms/storage/memory";

const parlance = createParlance({ storage: createMemoryStorage() });
const api = createFetchHandler(parlance, { basePath: "/i18n" });

const app = new Hono();
app.get("/", (c) => c.text("my app"));
app.all(
  "/i18n/*",
  mount((request) => api(request)),
);

for (const path of ["/", "/i18n/healthz", "/i18n/api/v1/projects"]) {
  const response = await app.request(path);
  console.log(`GET ${path} → ${response.status} ${await response.text()}`);
}
await parlance.close();
