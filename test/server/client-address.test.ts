import { expect, test } from "bun:test";
import { clientAddress } from "../../server/client-address.ts";
import { readConfig } from "../../server/config.ts";

const peer = { requestIP: () => ({ address: "10.0.0.1" }) };
const req = (xff?: string) =>
  new Request("http://x/", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });

test("the client address is taken `hops` places from the right of X-Forwarded-For and the peer", () => {
  expect(clientAddress(req("1.1.1.1"), peer, 0)).toBe("10.0.0.1");
  expect(clientAddress(req("1.1.1.1"), peer, false)).toBe("10.0.0.1");
  expect(clientAddress(req("6.6.6.6, 2.2.2.2"), peer, 1)).toBe("2.2.2.2");
  expect(clientAddress(req("6.6.6.6, 2.2.2.2"), peer, true)).toBe("2.2.2.2");
  expect(clientAddress(req("6.6.6.6, 2.2.2.2, 3.3.3.3"), peer, 2)).toBe("2.2.2.2");
  expect(clientAddress(req("2.2.2.2"), peer, 3)).toBe("2.2.2.2");
  expect(clientAddress(req(), peer, 1)).toBe("10.0.0.1");
  expect(clientAddress(req(" , "), peer, 1)).toBe("10.0.0.1");
});

test("PARLANCE_TRUST_PROXY is a number of hops", () => {
  expect(readConfig({}).trustProxy).toBe(0);
  expect(readConfig({ PARLANCE_TRUST_PROXY: "1" }).trustProxy).toBe(1);
  expect(readConfig({ PARLANCE_TRUST_PROXY: "2" }).trustProxy).toBe(2);
  expect(() => readConfig({ PARLANCE_TRUST_PROXY: "yes" })).toThrow("PARLANCE_TRUST_PROXY");
});
