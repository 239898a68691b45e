import { expect, test } from "bun:test";
import { isUuid, newRecordId, recordId } from "../../core/ids.ts";

/** The id as it was built before (a template of slices): the format must not change. */
const templated = (head: string, n: number) => {
  const c = n.toString(16).padStart(16, "0");
  return `${head}${c.slice(0, 4)}-${c.slice(4, 16)}`;
};

test("a record id is the head and the counter as 16 hex digits, whatever the counter's size", () => {
  const head = "0123abcd-89ab-cdef-";
  for (const n of [1, 9, 10, 15, 16, 255, 4096, 0xfffffffffff, 0xffffffffffff, 0x1000000000000, 2 ** 53 - 1])
    expect(recordId(head, n)).toBe(templated(head, n));
  expect(recordId(head, 0x2a)).toBe("0123abcd-89ab-cdef-0000-00000000002a");
  expect(recordId(head, 0x1234000000000)).toBe("0123abcd-89ab-cdef-0001-234000000000");
});

test("new record ids are UUID-shaped, share the process's head and increase", () => {
  const ids = Array.from({ length: 300 }, () => newRecordId());
  for (const id of ids) expect(isUuid(id)).toBe(true);
  expect(new Set(ids.map((id) => id.slice(0, 19))).size).toBe(1);
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
});
