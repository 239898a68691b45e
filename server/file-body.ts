/**
 * A response body from a file given in pieces (`PullFile.open`): a file of one piece is sent as
 * text, with its Content-Length; a longer one streams, each piece encoded to UTF-8 only when the
 * connection asks for more, so a 30 MB export is never held whole, as text or as bytes.
 */
export function fileBody(pieces: Iterable<string>): string | ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  const first = it.next();
  if (first.done) return "";
  const second = it.next();
  if (second.done) return first.value;
  const encoder = new TextEncoder();
  let pending: string[] = [first.value, second.value];
  return new ReadableStream<Uint8Array>(
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
}
