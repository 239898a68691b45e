import type { CheckpointMessage } from "./checkpoint-worker.ts";

/**
 * Checkpoints a database file's write-ahead log off the event loop. A push writes its 12 MB
 * content and then tens of thousands of rows; with SQLite's automatic checkpoint, the commit that
 * takes the log past 1,000 pages copies them into the file before it returns, on the thread that
 * answers requests (the 202 of a push, the end of its import). Here a worker with a connection of
 * its own copies them meanwhile; readers and writers go on (PASSIVE).
 */
export interface WalCheckpointer {
  /** A large commit just ended: checkpoint soon (requests made while one runs are merged). */
  request(): void;
  close(): Promise<void>;
}

/** Even with no request, the log is checkpointed this often (small writes add up too). */
const EVERY_MS = 1000;

export function createWalCheckpointer(path: string): WalCheckpointer {
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url));
  const send = (m: CheckpointMessage) => worker.postMessage(m);
  send({ open: path });
  let running = false;
  let again = false;
  let closed: (() => void) | null = null;
  worker.onmessage = (event: MessageEvent<string>) => {
    if (event.data === "closed") return closed?.();
    running = false;
    if (again) request();
  };
  function request(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    send("checkpoint");
  }
  const timer = setInterval(request, EVERY_MS);
  (timer as { unref?: () => void }).unref?.();
  (worker as { unref?: () => void }).unref?.();
  return {
    request,
    async close() {
      clearInterval(timer);
      // The worker closes its connection first: a checkpoint under way ends before the file closes.
      await new Promise<void>((resolve) => {
        closed = resolve;
        send("close");
        setTimeout(resolve, 5000);
      });
      worker.terminate();
    },
  };
}
