/**
 * A response body from a file given in pieces (`PullFile.open`): a file of one piece is sent as
 * bytes with its Content-Length; a longer one streams (chunked), each piece encoded to UTF-8 only
 * when the connection asks for more, so a 30 MB export is never held whole, as text or as bytes.
 */
export function fileBody(pieces: Iterable<string>): {
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  headers: Record<string, string>;
} {
  const encoder = new TextEncoder();
  const it = pieces[Symbol.iterator]();
  const first = it.next();
  const second = first.done ? first : it.next();
  if (second.done) {
    const bytes = encoder.encode(first.done ? "" : first.value);
    return { body: bytes, headers: { "content-length": String(bytes.length) } };
  }
  let pending: string[] = [first.value as string, second.value];
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pending.length > 0 ? pending.shift() : it.next().value;
        if (piece === undefined) controller.close();
        else controller.enqueue(encoder.encode(piece));
      },
      cancel() {
        pending = [];
        it.return?.();
      },
    },
    // Nothing is rendered ahead of what the connection takes.
    { highWaterMark: 0 },
  );
  return { body, headers: {} };
}
