import { expect, test } from "bun:test";
import { isParlanceError } from "../../core/index.ts";
import { readBodyText } from "../../server/body.ts";

const streaming = (chunks: Uint8Array[], hang = false) =>
  new Request("http://x/", {
    method: "POST",
    body: new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else if (!hang) controller.close();
        else return new Promise(() => {});
      },
    }),
    duplex: "half",
  } as RequestInit);

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (isParlanceError(e) ? e.code : String(e)),
  );

test("a body that stops arriving is 408 once the deadline passes", async () => {
  const req = streaming([new TextEncoder().encode('{"a":')], true);
  expect(await codeOf(readBodyText(req, 1024, 50))).toBe("request_timeout");
});

test("a body is read whole under the limit, refused past it, and must be UTF-8", async () => {
  const enc = new TextEncoder();
  expect(await readBodyText(streaming([enc.encode("hé"), enc.encode("llo")]), 10)).toBe("héllo");
  expect(
    await codeOf(readBodyText(streaming([enc.encode("x".repeat(8)), enc.encode("x".repeat(8))]), 10)),
  ).toBe("payload_too_large");
  expect(await codeOf(readBodyText(streaming([new Uint8Array([0x61, 0xc3])]), 10))).toBe("invalid_input");
  // A multi-byte character split across chunks is still one character.
  const e = enc.encode("é");
  expect(await readBodyText(streaming([e.slice(0, 1), e.slice(1)]), 10)).toBe("é");
});
