/**
 * The whole body of a response as bytes, read piece by piece from its stream. Bun's
 * `Response.arrayBuffer()` costs the client several times the CPU on a chunked body, which every
 * pull of more than one 64 Ki piece is: 300 against 125 ms for the 32.6 MB XLIFF of 50,000 keys,
 * 320 against 30 ms for 32 MiB from a bare server (docs/benchmarks.md, "Pulls, fifth pass").
 */
export async function bodyBytes(res: Response): Promise<Uint8Array> {
  if (res.body === null) return new Uint8Array(0);
  const pieces: Uint8Array[] = [];
  let length = 0;
  for await (const piece of res.body) {
    pieces.push(piece);
    length += piece.byteLength;
  }
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  return bytes;
}
