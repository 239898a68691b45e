/**
 * The API's fetch handler served by Node's http server through `@hono/node-server`, which turns
 * Node's requests into web-standard ones. The socket's address goes to the rate limiter.
 *
 *   node examples/fetch-node.ts
 */
import { serve } from "@hono/node-server";
import { createParlance } from "parlance-tms";
import { createFetchHandler } from "parlance-tms/server";
import { createMemoryStorage } from "parlance-tms/storage/memory";

const parlance = createParlance({ storage: createMemoryStorage() });
const api = createFetchHandler(parlance);

const server = serve({
  port: 0, // any free port; a real app says 3000
  hostname: "127.0.0.1",
  fetch: (request, env) => {
    if (new URL(request.url).pathname === "/") return new Response("my app");
    return api(request, { clientAddress: env.incoming.socket.remoteAddress });
  },
});
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
const { port } = server.address() as { port: number };

for (const path of ["/", "/healthz", "/api/v1/projects"]) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  console.log(`GET ${path} → ${response.status} ${await response.text()}`);
}
await new Promise((resolve) => server.close(resolve));
await parlance.close();
