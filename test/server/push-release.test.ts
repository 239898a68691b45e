/**
 * A push's body is released once the push is answered (server/push-body.ts): its buffer is
 * detached, so its memory goes back at once instead of waiting for a full collection. Only a body
 * of COLLECT_AFTER_BODY_BYTES or more is worth telling the host (a full collection).
 */
import { expect, test } from "bun:test";
import { UnparsedJson } from "../../server/body.ts";
import {
  COLLECT_AFTER_BODY_BYTES,
  parsedPushBody,
  pushContentOf,
  releasePushContent,
} from "../../server/push-body.ts";

test("releasing a push's content frees the whole body it lies in, once, and tells its size", async () => {
  const body = new TextEncoder().encode(JSON.stringify({ language: "fr", content: '{"a":"b"}' }));
  const size = body.byteLength;
  const request = new Request("http://x/");
  await parsedPushBody(new UnparsedJson(body), request);
  const content = pushContentOf(request);
  expect(new TextDecoder().decode(content)).toBe('{"a":"b"}');
  expect(releasePushContent(request)).toBe(size);
  expect(size).toBeLessThan(COLLECT_AFTER_BODY_BYTES);
  expect(body.byteLength).toBe(0);
  expect(content?.byteLength).toBe(0);
  expect(pushContentOf(request)).toBeUndefined();
  expect(releasePushContent(request)).toBe(0); // nothing left to release
});

test("a request whose body held no content string has nothing to release", () => {
  const request = new Request("http://x/");
  expect(releasePushContent(request)).toBe(0);
  expect(pushContentOf(request)).toBeUndefined();
});
