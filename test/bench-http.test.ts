import { expect, test } from "bun:test";
import { benchFetch, CLIENT_IDLE_LATEST_SECONDS } from "../bench/http.ts";
import { IDLE_TIMEOUT_SECONDS } from "../server/host-bun.ts";

test("the bench drops an idle connection before the server would close it", () => {
  expect(CLIENT_IDLE_LATEST_SECONDS).toBeLessThan(IDLE_TIMEOUT_SECONDS);
});

test("the bench's fetch reuses its connections while they are fresh", async () => {
  const peers = new Set<number>();
  using server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, s) => {
      peers.add(s.requestIP(request)?.port ?? -1);
      return new Response("ok");
    },
  });
  for (let i = 0; i < 5; i++)
    expect(await (await benchFetch(`http://127.0.0.1:${server.port}/`)).text()).toBe("ok");
  expect(peers.size).toBe(1);
});
