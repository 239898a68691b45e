import PQueue from "p-queue";
import type { JobQueue } from "../core/ports.ts";

/**
 * The in-process queue: one task at a time, in the order added. Imports write one language of one
 * project each; running them one by one keeps pushes to a project in order and SQLite's single
 * writer uncontended.
 */
export function createPQueueJobQueue(onError: (e: unknown) => void = () => {}): JobQueue {
  const queue = new PQueue({ concurrency: 1 });
  let closed = false;
  return {
    add(task) {
      if (closed) return;
      queue.add(task).catch(onError);
    },
    onIdle: () => queue.onIdle(),
    async close() {
      closed = true;
      queue.clear();
      await queue.onIdle();
    },
  };
}
