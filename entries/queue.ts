/** `parlance-tms/queue`: the in-process job queue (p-queue, one import at a time). */
export { createPQueueJobQueue } from "../adapters/p-queue-job-queue.ts";
