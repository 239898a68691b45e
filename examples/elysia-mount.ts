/**
 * Parlance mounted under /i18n in an Elysia app that keeps its own routes and its own auth. The
 * plugin's hooks (API keys, rate limits, error objects) apply under /i18n only. The script sends a
 * few requests through `app.handle` and prints the answers; on Bun, `app.listen(3000)` serves it.
 *
 *   bun examples/elysia-mount.ts     node examples/elysia-mount.ts     deno run -A examples/elysia-mount.ts
 */
import { Elysia } from "elysia";
import { createParlance } from "parlance-tms";
import { parlancePlugin } from "parlance-tms/server";
import { createMemoryStorage } from "parlance-tms/storage/memory";

const parlance = createParlance({ storage: createMemoryStorage() });
const org = await parlance.admin.createOrg("Acme");
await parlance.admin.createProject({
  orgId: org.id,
  name: "Web",
  baseLanguage: "en",
  languages: ["fr"],
});
const { key } = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["translations:read"] });

// The host's own auth guards its own routes, and only those.
const dashboard = new Elysia()
  .onBeforeHandle(({ request, status }) => {
    if (request.headers.get("cookie") !== "session=alice") return status(401, "sign in first");
  })
  .get("/dashboard", () => "your dashboard");

const app = new Elysia()
  .get("/", () => "my shop")
  .use(dashboard)
  .use(parlancePlugin(parlance, { prefix: "/i18n" }));

async function show(path: string, headers: Record<string, string> = {}) {
  const response = await app.handle(new Request(`http://localhost${path}`, { headers }));
  console.log(`GET ${path} → ${response.status} ${await response.text()}`);
}

await show("/");
await show("/dashboard");
await show("/dashboard", { cookie: "session=alice" });
await show("/i18n/healthz");
await show("/i18n/api/v1/projects");
await show("/i18n/api/v1/projects", { authorization: `Bearer ${key}` });
await parlance.close();
