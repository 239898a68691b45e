/**
 * The API's web-standard fetch handler served by `Bun.serve`, beside the app's own route. Bun
 * tells the handler the client's address, which the anonymous rate limiter keys on.
 *
 *   bun examples/fetch-bun.ts
 */
import { createParlance } from "parlance-tms";
import { createFetchHandler } from "parlance-tms/server";
import { createMemoryStorage } from "parlance-tms/storage/memory";

const parlance = createParlance({ storage: createMemoryStorage() });
const api = createFetchHandler(parlance);

const server = Bun.serve({
  port: 0, // any free port; a real app says 3000
  fetch(request, server) {
    if (new URL(request.url).pathname === "/") return new Response("my app");
    return api(request, { clientAddress: server.requestIP(request)?.address });
  },
});

for (const path of ["/", "/healthz", "/api/v1/projects"]) {
  const response = await fetch(new URL(path, server.url));
  console.log(`GET ${path} → ${response.status} ${await response.text()}`);
}
await server.stop();
await parlance.close();
