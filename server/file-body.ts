/**
 * A response body from a file given in pieces (`PullFile.pieces`): a file of one piece is sent as
 * bytes with its Content-Length; a longer one streams (chunked), each piece handed over only when
 * the connection asks for more, so a 30 MB export is never held whole, as text or as bytes.
 * Pieces given asynchronously (rows still being read) are awaited the same way.
 *
 * `textChunks`: the listener writes string chunks of a stream as UTF-8 itself (Bun), so each piece
 * goes as it is; otherwise (Deno, Node) each is encoded here. Bun's own write costs less than a
 * `TextEncoder` array a piece: about a twelfth of an XLIFF pull's server CPU and two fifths of its
 * page faults (docs/benchmarks.md, "Pull bodies as text, and joins by key before the first
 * ANALYZE, sixteenth pass").
 */
export async function fileBody(
  pieces: Iterable<string> | AsyncIterable<string>,
  textChunks = false,
): Promise<{
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array | string>;
  headers: Record<string, string>;
}> {
  const encoder = new TextEncoder();
  const it: Iterator<string> | AsyncIterator<string> =
    Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  const first = await it.next();
  const second = first.done ? first : await it.next();
  if (second.done) {
    const bytes = encoder.encode(first.done ? "" : first.value);
    return { body: bytes, headers: { "content-length": String(bytes.length) } };
  }
  let pending: string[] = [first.value as string, second.value];
  const body = new ReadableStream<Uint8Array | string>(
    {
      pull(controller) {
        const enqueue = (piece: IteratorResult<string>) => {
          if (piece.done) controller.close();
          else controller.enqueue(textChunks ? piece.value : encoder.encode(piece.value));
        };
        const held = pending.shift();
        if (held !== undefined) return enqueue({ value: held });
        const next = it.next();
        // A synchronous file's pieces without a turn of the event loop each.
        return next instanceof Promise ? next.then(enqueue) : enqueue(next);
      },
      async cancel() {
        pending = [];
        await it.return?.();
      },
    },
    // Nothing is rendered ahead of what the connection takes.
    { highWaterMark: 0 },
  );
  return { body, headers: {} };
}
