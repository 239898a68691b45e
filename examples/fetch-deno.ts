/**
 * The API's web-standard fetch handler served by `Deno.serve`, beside the app's own route. Deno
 * tells the handler the client's address, which the anonymous rate limiter keys on.
 *
 *   deno run -A examples/fetch-deno.ts
 */
import { createParlance } from "parlance-tms";
import { createFetchHandler } from "parlance-tms/server";
import { createMemoryStorage } from "parlance-tms/storage/memory";

/** The part of Deno's global this example uses (so it type-checks without Deno's own types). */
declare const Deno: {
  serve(
    options: { port: number; onListen?: () => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
};

const parlance = createParlance({ storage: createMemoryStorage() });
const api = createFetchHandler(parlance);

const server = Deno.serve({ port: 0, onListen() {} }, (request, info) => {
  if (new URL(request.url).pathname === "/") return new Response("my app");
  return api(request, { clientAddress: info.remoteAddr.hostname });
});

for (const path of ["/", "/healthz", "/api/v1/projects"]) {
  const response = await fetch(`http://127.0.0.1:${server.addr.port}${path}`);
  console.log(`GET ${path} → ${response.status} ${await response.text()}`);
}
await server.shutdown();
await parlance.close();
