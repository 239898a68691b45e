import { expect, test } from "bun:test";
import { PageQueue } from "../../storage/page-queue.ts";

const take = async (queue: PageQueue<number>) => {
  const pages: number[][] = [];
  for await (const page of queue) pages.push(page);
  return pages;
};

test("rows pushed before and while pages are taken come out in pages of the given size, then the rest", async () => {
  const queue = new PageQueue<number>(2);
  queue.push(1);
  queue.push(2);
  queue.push(3);
  const taken = take(queue);
  await Promise.resolve();
  queue.push(4);
  queue.push(5);
  queue.end();
  expect(await taken).toEqual([[1, 2], [3, 4], [5]]);
});

test("a failed read fails the next page, even with pages read before it", async () => {
  const queue = new PageQueue<number>(1);
  queue.push(1);
  queue.push(2);
  queue.fail(new Error("connection lost"));
  await expect(take(queue)).rejects.toThrow("connection lost");
});

test("rows arriving after the pages are abandoned are dropped", async () => {
  const queue = new PageQueue<number>(1);
  queue.push(1);
  for await (const page of queue) {
    expect(page).toEqual([1]);
    break;
  }
  queue.push(2);
  queue.end();
  expect(await take(queue)).toEqual([]);
});
