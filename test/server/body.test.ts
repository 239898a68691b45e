import { expect, test } from "bun:test";
import { isParlanceError } from "../../core/index.ts";
import { readBodyBytes, readBodyText } from "../../server/body.ts";

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

// A listener that gathers bodies itself (Host.buffersBodies): a body of declared length is taken in
// one piece, not as the chunks its stream would hand over (each a buffer left as garbage).
const declared = (chunks: Uint8Array[], length: number, hang = false) => {
  const req = streaming(chunks, hang);
  req.headers.set("content-length", String(length));
  let whole = 0;
  const arrayBuffer = req.arrayBuffer.bind(req);
  req.arrayBuffer = () => {
    whole++;
    return arrayBuffer();
  };
  return { req, wholeReads: () => whole };
};

test("a body of declared length is taken whole from a listener that gathers it, with the same checks", async () => {
  const enc = new TextEncoder();
  const ok = declared([enc.encode("hé"), enc.encode("llo")], 6);
  expect(new TextDecoder().decode(await readBodyBytes(ok.req, 10, 1_000, true))).toBe("héllo");
  expect(ok.wholeReads()).toBe(1);
  const bad = declared([new Uint8Array([0x61, 0xc3])], 2);
  expect(await codeOf(readBodyBytes(bad.req, 10, 1_000, true))).toBe("invalid_input");
  const late = declared([enc.encode('{"a":')], 8, true);
  expect(await codeOf(readBodyBytes(late.req, 1024, 50, true))).toBe("request_timeout");
  const over = declared([enc.encode("x".repeat(8))], 20);
  expect(await codeOf(readBodyBytes(over.req, 10, 1_000, true))).toBe("payload_too_large");
  expect(over.wholeReads()).toBe(0); // refused on its Content-Length, unread
});

test("without a declared length, or from a listener that does not gather bodies, the chunks are read", async () => {
  const enc = new TextEncoder();
  const notDeclared = streaming([enc.encode("x".repeat(8)), enc.encode("x".repeat(8))]);
  expect(await codeOf(readBodyBytes(notDeclared, 10, 1_000, true))).toBe("payload_too_large");
  const chunked = declared([enc.encode("ab"), enc.encode("c")], 3);
  expect(new TextDecoder().decode(await readBodyBytes(chunked.req, 10, 1_000, false))).toBe("abc");
  expect(chunked.wholeReads()).toBe(0);
});
