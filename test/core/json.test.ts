import { describe, expect, test } from "bun:test";
import { parseDateTime } from "../../core/date-time.ts";
import { jsonErrorAt, readJson } from "../../core/json.ts";

describe("readJson", () => {
  test("reads what JSON.parse reads", () => {
    for (const text of ['{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n"]}', "[]", '"s"', "0", ' {"":{}} ']) {
      expect(JSON.parse(JSON.stringify(readJson(text)))).toEqual(JSON.parse(text));
    }
  });

  test("prototype names are own data at every depth, nothing is inherited", () => {
    const v = readJson('{"__proto__":{"admin":true},"a":{"constructor":{"prototype":{"x":1}}}}') as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(v)).toEqual(["__proto__", "a"]);
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
    expect((v as Record<string, unknown>).admin).toBeUndefined();
    expect(v.a?.constructor).toEqual({ prototype: { x: 1 } } as never);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect((v as Record<string, unknown>).hasOwnProperty).toBeUndefined();
    expect(`${v}`).toBe("[object Object]");
    const shadowing = readJson('{"toString":null,"valueOf":{"toString":1}}');
    expect(`${shadowing}`).toBe("[object Object]");
    expect(String(shadowing)).toBe("[object Object]");
  });

  test("a repeated name is refused with its place", () => {
    expect(() => readJson('{"a":1,\n"a":2}', { what: "Body" })).toThrow(
      'Body is not valid JSON: the member name "a" appears twice in one object at line 2, column 1',
    );
    expect(() => readJson('{"a":{"b":1},"c":{"b":2}}')).not.toThrow();
  });

  test("errors name line and column", () => {
    const cases: [string, string][] = [
      ["", "the text is empty at line 1, column 1"],
      ['{"a":1,}', "line 1, column 8"],
      ["{\n  'a': 1}", "line 2, column 3"],
      ['{"a":"x\ty"}', "U+0009 inside a string"],
      ['{"a":"\\x"}', "invalid escape"],
      ['{"a":1} x', "after the value"],
      ["1e400", "out of range"],
      ["[01]", '"," or "]"'],
      ['"abc', "unterminated string"],
      ['{"a":"\\\\"}x', "line 1, column 11"],
    ];
    for (const [text, message] of cases) expect(() => readJson(text)).toThrow(message);
  });

  test("depth is bounded", () => {
    expect(() => readJson(`${"[".repeat(65)}${"]".repeat(65)}`)).toThrow("nested more than 64 levels");
    expect(readJson(`${"[".repeat(64)}${"]".repeat(64)}`)).toBeArray();
  });

  test("jsonErrorAt points at the first error, or null", () => {
    expect(jsonErrorAt('{"a":1}')).toBeNull();
    expect(jsonErrorAt('{\r\n"a":tru}')).toMatchObject({ line: 2, column: 5 });
  });
});

describe("parseDateTime", () => {
  test("real calendar dates only", () => {
    expect(parseDateTime("2028-02-29T00:00:00Z")).toBe(Date.UTC(2028, 1, 29));
    expect(parseDateTime("2026-06-01T12:00:00.123+02:00")).toBe(Date.UTC(2026, 5, 1, 10, 0, 0, 123));
    for (const bad of [
      "2099-02-29T00:00:00Z",
      "2099-02-30T00:00:00Z",
      "2100-02-29T00:00:00Z",
      "2099-04-31T00:00:00Z",
      "2099-00-01T00:00:00Z",
      "2099-01-01T25:00:00Z",
      "2099-01-01T00:60:00Z",
      "2099-01-01T00:00:00",
      "2099-01-01",
      "2099-01-01T00:00:00+24:00",
      "tomorrow",
    ]) {
      expect({ bad, ms: parseDateTime(bad) }).toEqual({ bad, ms: null });
    }
  });
});
