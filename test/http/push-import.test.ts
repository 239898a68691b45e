/**
 * POST /api/v1/push that succeeds (API.md push, CONTRACT §5, §6, §11): flattening, the dry-run
 * preview, the accepted job, merge and replace, statuses, identifiers, ordering and the quota.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { compareCodePoints } from "../../core/code-point.ts";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import {
  countJobsCreated,
  expectError,
  holdJobs,
  type PushTarget,
  pushAndWait,
  sendPush,
  storedRows,
  storedValues,
} from "../support/translation-io.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let bigContent: string | undefined;
/** 50,000 rows: the most one push may carry. */
function fiftyThousand(): string {
  if (!bigContent) {
    const obj: Record<string, string> = {};
    for (let i = 0; i < 50_000; i++) obj[`section${i % 100}.key${i}`] = `value ${i}`;
    bigContent = JSON.stringify(obj);
  }
  return bigContent;
}

await forEachStore((kind) => {
  let s: TestServer, orgId: string, projectId: string, key: string, fr: PushTarget;
  useWorld(kind, (w) => ({ s, orgId, projectId, key, fr } = w));

  /** GET /translations: key → status. */
  async function statuses(language = "fr"): Promise<Record<string, string>> {
    const res = await s.request(`/api/v1/translations?project_id=${projectId}&language=${language}`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { key: string; status: string }[] };
    return Object.fromEntries(body.data.map((t) => [t.key, t.status]));
  }

  describe("flattening", () => {
    test("nested objects, null, arrays, numbers, booleans, empty containers and prototype-named keys", async () => {
      const content =
        '{"nested":{"a":{"b":"x"}},"nil":null,"list":["p",{"q":"r"},["s"]],"int":1,"float":1.5,' +
        '"exp":1e3,"big":12345678901234567890,"neg":-2.50,"tiny":1e-7,"huge":1e21,"zero":-0,' +
        '"t":true,"f":false,"empty":{},"emptyList":[],"deep":{"e":{}},' +
        '"__proto__":"proto","constructor":"ctor","toString":{"x":"ts"},"hasOwnProperty":"own"}';
      const job = await pushAndWait(s, fr, content);
      expect(job.status).toBe("completed");
      const expected: [string, string][] = [
        ["nested.a.b", "x"],
        ["nil", "null"],
        ["list.0", "p"],
        ["list.1.q", "r"],
        ["list.2.0", "s"],
        ["int", "1"],
        ["float", "1.5"],
        ["exp", "1000"],
        ["big", "12345678901234567000"],
        ["neg", "-2.5"],
        ["tiny", "1e-7"],
        ["huge", "1e+21"],
        ["zero", "0"],
        ["t", "true"],
        ["f", "false"],
        ["__proto__", "proto"],
        ["constructor", "ctor"],
        ["toString.x", "ts"],
        ["hasOwnProperty", "own"],
      ];
      expected.sort((a, b) => compareCodePoints(a[0], b[0]));
      const rows = await s.parlance.admin.listTranslations(projectId, "fr");
      expect(rows.map((r) => [r.key, r.value])).toEqual(expected);
      expect(job.summary).toEqual({ created: expected.length, updated: 0 });
    });
    test("a name repeated in one object is two inputs for one key: 400 naming it, nothing written", async () => {
      for (const [content, key] of [
        ['{"a":"1","a":"2"}', '"a"'],
        ['{"m":{"x":"1","x":"2"}}', '"m.x"'],
        ['{"list":[{"k":"1"},{"k":"2","k":"3"}]}', '"list.1.k"'],
      ] as const) {
        const res = await sendPush(s, fr, content);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: string }).error).toContain(key);
      }
      expect(await storedValues(s, projectId)).toEqual({});
    });

    test("the same name in different objects is not a repetition", async () => {
      const job = await pushAndWait(s, fr, '{"a":{"x":"1"},"b":{"x":"2"},"c":[{"x":"3"},{"x":"4"}]}');
      expect(job.summary).toEqual({ created: 4, updated: 0 });
    });

    test("a leading byte order mark is ignored; one inside a value is kept", async () => {
      const job = await pushAndWait(s, fr, '\uFEFF{"a":"\uFEFFx"}');
      expect(job.summary).toEqual({ created: 1, updated: 0 });
      expect(await storedValues(s, projectId)).toEqual({ a: "\uFEFFx" });
    });
  });

  describe("dry run", () => {
    beforeEach(async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      await pushAndWait(s, fr, { c: "3" }, { status: "draft" });
      await pushAndWait(s, { ...fr, language: "de" }, { a: "de" });
    });

    test("merge: 200 with exactly the preview; only a changed value or status counts as an update", async () => {
      const before = await storedRows(s, projectId);
      const jobs = countJobsCreated(s);
      const res = await sendPush(s, fr, { a: "1", b: "changed", c: "3", d: "new" }, { dryRun: true });
      expect(res.status).toBe(200);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toEqual({
        dryRun: true,
        importMode: "merge",
        language: "fr",
        rowCount: 4,
        toCreate: 1,
        toUpdate: 2,
        unchanged: 1,
      });
      await s.idle();
      expect(await storedRows(s, projectId)).toEqual(before);
      expect(jobs()).toBe(0);
    });

    test("replace: toDelete counts the language's keys absent from the content, other languages aside", async () => {
      const jobs = countJobsCreated(s);
      const res = await sendPush(s, fr, { a: "1", d: "new" }, { dryRun: true, importMode: "replace" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        dryRun: true,
        importMode: "replace",
        language: "fr",
        rowCount: 2,
        toCreate: 1,
        toUpdate: 0,
        unchanged: 1,
        toDelete: 2,
      });
      await s.idle();
      expect(await storedValues(s, projectId)).toEqual({ a: "1", b: "2", c: "3" });
      expect(jobs()).toBe(0);
    });

    test("a given status changes what counts as an update", async () => {
      const res = await sendPush(s, fr, { a: "1", c: "3" }, { dryRun: true, status: "draft" });
      expect(await res.json()).toMatchObject({ rowCount: 2, toCreate: 0, toUpdate: 1, unchanged: 1 });
    });
  });

  describe("accepted job", () => {
    test("202 {jobId, runId} with Location; runId differs; the job completes with {created, updated}", async () => {
      const res = await sendPush(s, fr, { a: "1", b: "2" });
      expect(res.status).toBe(202);
      const body = (await res.json()) as { jobId: string; runId: string };
      expect(body).toEqual({ jobId: expect.stringMatching(UUID), runId: expect.stringMatching(UUID) });
      expect(body.runId).not.toBe(body.jobId);
      expect(res.headers.get("location")).toBe(`/api/v1/jobs/${body.jobId}`);
      await s.idle();
      const job = await s.request(res.headers.get("location") as string, { key });
      expect(((await job.json()) as { data: unknown }).data).toMatchObject({
        id: body.jobId,
        status: "completed",
        summary: { created: 2, updated: 0 },
        errorMessage: null,
      });
      const again = await pushAndWait(s, fr, { a: "1", b: "changed", c: "new" });
      expect(again.summary).toEqual({ created: 1, updated: 1 });
      expect(await storedValues(s, projectId)).toEqual({ a: "1", b: "changed", c: "new" });
    });

    test("merge keeps the language's other keys", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      const job = await pushAndWait(s, fr, { b: "two", c: "3" });
      expect(job.summary).toEqual({ created: 1, updated: 1 });
      expect(await storedValues(s, projectId)).toEqual({ a: "1", b: "two", c: "3" });
    });

    test("replace leaves exactly the content's keys in that language and never touches other languages", async () => {
      await pushAndWait(s, { ...fr, language: "en" }, { a: "A", b: "B" });
      await pushAndWait(s, { ...fr, language: "de" }, { a: "dA", z: "dZ" });
      await pushAndWait(s, fr, { a: "1", b: "2", c: "3" });
      const en = await storedRows(s, projectId, "en");
      const de = await storedRows(s, projectId, "de");
      const job = await pushAndWait(s, fr, { b: "two", d: "4" }, { importMode: "replace" });
      expect(job.summary).toEqual({ created: 1, updated: 1, deleted: 2 });
      expect(await storedValues(s, projectId)).toEqual({ b: "two", d: "4" });
      expect(await storedRows(s, projectId, "en")).toEqual(en);
      expect(await storedRows(s, projectId, "de")).toEqual(de);
      // Another project of the organization is not touched either.
      const other = await s.seed.project(orgId);
      await pushAndWait(s, { key, projectId: other.id, language: "fr" }, { a: "other" });
      await pushAndWait(s, fr, {}, { importMode: "replace" });
      expect(await storedValues(s, projectId)).toEqual({});
      expect(await storedValues(s, other.id)).toEqual({ a: "other" });
    });

    test("status defaults to approved; a given status is applied to created and updated rows only", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      expect(await statuses()).toEqual({ a: "approved", b: "approved" });
      for (const status of ["draft", "pending", "needs_review"]) {
        const job = await pushAndWait(s, fr, { a: "1", [status]: "x" }, { status });
        expect(job.summary).toEqual({ created: 1, updated: 1 });
        expect((await statuses())[status]).toBe(status);
        expect((await statuses()).a).toBe(status);
      }
      expect((await statuses()).b).toBe("approved");
      const same = await pushAndWait(s, fr, { a: "1" }, { status: "needs_review" });
      expect(same.summary).toEqual({ created: 0, updated: 0 });
    });

    test("an update keeps the identifier; a key deleted by replace and pushed again gets a new one", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      const first = await storedRows(s, projectId);
      await pushAndWait(s, fr, { a: "changed", b: "2" }, { status: "draft" });
      const updated = await storedRows(s, projectId);
      expect(updated.a?.id).toBe(first.a?.id as string);
      expect(updated.b?.id).toBe(first.b?.id as string);
      expect(updated.a?.value).toBe("changed");
      await pushAndWait(s, fr, { a: "changed" }, { importMode: "replace", status: "draft" });
      expect((await storedRows(s, projectId)).a?.id).toBe(first.a?.id as string);
      await pushAndWait(s, fr, { b: "2" });
      const again = await storedRows(s, projectId);
      expect(again.b?.id).toEqual(expect.stringMatching(UUID));
      expect(again.b?.id).not.toBe(first.b?.id as string);
    });

    test("pushes to one project apply in the order they were accepted", async () => {
      const a = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, `A${i}`]));
      await sendPush(s, fr, a, { importMode: "replace" });
      await sendPush(s, fr, { k0: "B" }, { importMode: "replace" });
      await s.idle();
      expect(await storedValues(s, projectId)).toEqual({ k0: "B" });
      // Accepted in the same millisecond while no job can run yet: still in order.
      for (let round = 0; round < 5; round++) {
        const hold = holdJobs(s);
        const accepted: string[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await sendPush(s, fr, { k0: `round${round}-push${i}` }, { importMode: "replace" });
          expect(res.status).toBe(202);
          accepted.push(((await res.json()) as { jobId: string }).jobId);
        }
        hold.release();
        await s.idle();
        expect(await storedValues(s, projectId)).toEqual({ k0: `round${round}-push3` });
      }
    });

    test("a push of 50,000 rows completes", async () => {
      const job = await pushAndWait(s, fr, fiftyThousand());
      expect(job).toMatchObject({ status: "completed", summary: { created: 50_000, updated: 0 } });
      const page = await s.request(`/api/v1/translations?project_id=${projectId}&language=fr&limit=1`, {
        key,
      });
      expect(((await page.json()) as { pagination: { total: number } }).pagination.total).toBe(50_000);
    }, 60_000);
  });

  describe("quota", () => {
    test("402 for a dry run and a push that would leave more rows than the quota; nothing written", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      await pushAndWait(s, { ...fr, language: "de" }, { a: "1" });
      await s.parlance.admin.setQuota(orgId, 4);
      const jobs = countJobsCreated(s);
      await expectError(await sendPush(s, fr, { c: "3", d: "4" }, { dryRun: true }), 402);
      await expectError(await sendPush(s, fr, { c: "3", d: "4" }), 402);
      await s.idle();
      expect(jobs()).toBe(0);
      expect(await storedValues(s, projectId)).toEqual({ a: "1", b: "2" });
      // Exactly at the quota is fine; updates do not count.
      const fine = await pushAndWait(s, fr, { a: "one", c: "3" });
      expect(fine).toMatchObject({ status: "completed", summary: { created: 1, updated: 1 } });
      await expectError(await sendPush(s, fr, { e: "5" }), 402);
    });

    test("rows now − deleted + created: a replace that frees rows may create as many", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2", c: "3" });
      await s.parlance.admin.setQuota(orgId, 3);
      const preview = await sendPush(
        s,
        fr,
        { x: "1", y: "2", c: "3" },
        { dryRun: true, importMode: "replace" },
      );
      expect(await preview.json()).toMatchObject({ toCreate: 2, toDelete: 2 });
      const job = await pushAndWait(s, fr, { x: "1", y: "2", c: "3" }, { importMode: "replace" });
      expect(job.summary).toEqual({ created: 2, updated: 0, deleted: 2 });
      await expectError(
        await sendPush(s, fr, { x: "1", y: "2", c: "3", z: "4" }, { importMode: "replace" }),
        402,
      );
    });

    test("counts rows across the organization's projects, not other organizations' nor deleted projects'", async () => {
      const other = await s.seed.project(orgId);
      await pushAndWait(s, { key, projectId: other.id, language: "en" }, { a: "1", b: "2" });
      const foreign = await s.seed.world();
      await pushAndWait(s, { key: foreign.key.key, projectId: foreign.project.id }, { a: "1", b: "2" });
      await s.parlance.admin.setQuota(orgId, 3);
      await expectError(await sendPush(s, fr, { a: "1", b: "2" }, { dryRun: true }), 402);
      expect((await sendPush(s, fr, { a: "1" }, { dryRun: true })).status).toBe(200);
      await s.parlance.admin.deleteProject(other.id);
      expect((await pushAndWait(s, fr, { a: "1", b: "2", c: "3" })).status).toBe("completed");
    });
  });
});
