/**
 * server/push-body.ts reads a push body's `content` string from the body's bytes, in slices: the
 * object and the content's decoded bytes are those of parsing the whole body as text, and a body
 * whose content string is not well-formed is refused with the error the whole body's parse gives.
 */
import { expect, test } from "bun:test";
import { parseJsonBody, UnparsedJson } from "../../server/body.ts";
import { parsedPushBody, pushContentOf } from "../../server/push-body.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const outcome = async (read: () => unknown) => {
  try {
    return { value: await read() };
  } catch (e) {
    return { error: String(e) };
  }
};

test("the content's bytes and the rest of the body, as a parse of the whole body gives them", async () => {
  const big = JSON.stringify(
    Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, `v\\"${i}\n\u00e9\ud83d\ude00`])),
  );
  for (const body of [
    { language: "fr", content: '{"a": "b"}', projectId: "p" },
    { content: big, language: "fr" },
    { dryRun: true, nested: { content: "not this" }, content: 'x\\"\u0001\u2028' },
  ]) {
    const text = JSON.stringify(body);
    const request = new Request("http://x/");
    const parsed = (await parsedPushBody(new UnparsedJson(encode(text)), request)) as { content: string };
    const whole = parseJsonBody(text) as { content: string };
    expect({ ...parsed, content: new TextDecoder().decode(pushContentOf(request)) }).toEqual(whole);
    expect(parsed.content).toBe("");
  }
});

test("a content string that is not well-formed: the whole body's error", async () => {
  const long = "a".repeat(300_000);
  for (const text of [
    `{"content": "${long}\\q${long}"}`,
    `{"content": "${long}\u0001"}`,
    `{"content": "${long}\\u12G4"}`,
    `{"content": "${long}`,
    `{"content": "${long}\\`,
    `{"content": "${long}\\"}`,
    `{"content": "${long}"`,
    `{"content": "${long}" "x": 1}`,
  ]) {
    const got = await outcome(() => parsedPushBody(new UnparsedJson(encode(text)), new Request("http://x/")));
    expect(got).toEqual(await outcome(() => parseJsonBody(text)));
    expect(got).toHaveProperty("error");
  }
});

test("escapes and refused bytes where the scan's 64 KiB slices meet: as the whole body's parse", async () => {
  // The scan reads the string in slices of 65,536 bytes from the byte after its opening quote.
  const slice = 65_536;
  for (const piece of ['\\"', "\\\\", "\\u00e9", "\\ud83d\\ude00", "\\n", "\\q", "\\u12G4", "\u0001", '"']) {
    for (let before = slice - 8; before <= slice + 1; before++) {
      const text = `{"content": "${"a".repeat(before)}${piece}tail", "language": "fr"}`;
      const request = new Request("http://x/");
      const got = await outcome(async () => {
        const parsed = (await parsedPushBody(new UnparsedJson(encode(text)), request)) as object;
        return { ...parsed, content: new TextDecoder().decode(pushContentOf(request)) };
      });
      expect(got).toEqual(await outcome(() => parseJsonBody(text)));
    }
  }
});
