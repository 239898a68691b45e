import { expect, test } from "bun:test";
import {
  originalOf,
  requestOrigin,
  requestPath,
  rewrapped,
  routable,
  targetStart,
} from "../../server/request-target.ts";

test("the target starts after the authority, or at once for a URL of its target alone", () => {
  expect(targetStart("http://localhost/api/v1?x=1")).toBe(16);
  expect(targetStart("http://a/b")).toBe(8);
  expect(targetStart("/api/v1")).toBe(0);
  expect(targetStart("http://localhost")).toBe(-1);
});

test("the path drops the query and a trailing slash, and keeps what was sent", () => {
  expect(requestPath("http://localhost/api/v1/pull?format=json")).toBe("/api/v1/pull");
  expect(requestPath("http://a/api/v1/project/")).toBe("/api/v1/project");
  expect(requestPath("/api/workspace/me?x")).toBe("/api/workspace/me");
  expect(requestPath("http://localhost/")).toBe("/");
  expect(requestPath("http://localhost")).toBe("/");
});

test("a URL the router reads right is kept; any other gets a stand-in that remembers it", async () => {
  const usual = new Request("http://localhost:8080/api/v1/project?project_id=1");
  expect(routable(usual)).toBe(usual);
  const long = new Request("http://tms.example.com/x");
  expect(routable(long)).toBe(long);

  const short = new Request("http://tms/api/workspace/session?next=/a", {
    method: "POST",
    headers: { cookie: "parlance_session=abc", "content-type": "application/json" },
    body: '{"email":"ana@example.com"}',
  });
  const standIn = routable(short);
  expect(standIn).not.toBe(short);
  // The router reads the path from the first "/" at index 11 or later.
  expect(standIn.url.slice(standIn.url.indexOf("/", 11))).toBe("/api/workspace/session?next=/a");
  expect(standIn.method).toBe("POST");
  expect(standIn.headers.get("cookie")).toBe("parlance_session=abc");
  expect(await standIn.text()).toBe('{"email":"ana@example.com"}');
  expect(originalOf(standIn)).toBe(short);
  expect(originalOf(short)).toBe(short);
  expect(requestOrigin(standIn)).toBe("http://tms");
  expect(routable(standIn)).toBe(standIn);
  // A request made from a stand-in, as the fetch handler makes one, still knows the original.
  const forwarded = rewrapped(standIn, `${standIn.url}&more`, {
    headers: { "x-forwarded-for": "192.0.2.1" },
  });
  expect(originalOf(forwarded)).toBe(short);
  expect(requestOrigin(forwarded)).toBe("http://tms");

  const https = new Request("https://ab/api/v1/openapi.json");
  expect(routable(https).url.endsWith("/api/v1/openapi.json")).toBe(true);
  expect(routable(https)).not.toBe(https);
});

// A request without a Host (its URL the target alone) comes only from a listener: the socket tests
// in test/http/request-target.test.ts send one.
test("the origin is the one the client sent the request to", () => {
  expect(requestOrigin(new Request("http://localhost:8080/api/workspace/me"))).toBe("http://localhost:8080");
  expect(requestOrigin(routable(new Request("https://ab/api/workspace/me")))).toBe("https://ab");
});
