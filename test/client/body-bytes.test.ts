import { expect, test } from "bun:test";
import { bodyBytes } from "../../server/cli/client/body-bytes.ts";

const streamOf = (pieces: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });

test("a body in several pieces comes back whole, in order", async () => {
  const pieces = [new Uint8Array([1, 2, 3]), new Uint8Array([]), new Uint8Array([4]), new Uint8Array([5, 6])];
  expect(await bodyBytes(new Response(streamOf(pieces)))).toEqual(new Uint8Array([1, 2, 3, 4, 5, 6]));
});

test("one piece, an empty body and no body", async () => {
  expect(await bodyBytes(new Response(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])))).toEqual(
    new Uint8Array([0xef, 0xbb, 0xbf, 0x61]),
  );
  expect(await bodyBytes(new Response(""))).toEqual(new Uint8Array(0));
  expect(await bodyBytes(new Response(null))).toEqual(new Uint8Array(0));
});

test("a chunked answer of a real server: the same bytes as arrayBuffer gives", async () => {
  const piece = new TextEncoder().encode("é".repeat(40_000));
  const server = Bun.serve({
    port: 0,
    fetch: () => new Response(streamOf([piece, piece, piece])),
  });
  try {
    const url = `http://127.0.0.1:${server.port}/`;
    const expected = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(expected.byteLength).toBe(3 * piece.byteLength);
    expect(await bodyBytes(await fetch(url))).toEqual(expected);
  } finally {
    server.stop(true);
  }
});
