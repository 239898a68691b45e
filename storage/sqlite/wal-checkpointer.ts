/**
 * Checkpoints a database file's write-ahead log off the event loop. A push writes its 12 MB
 * content and then tens of thousands of rows; with SQLite's automatic checkpoint, the commit that
 * takes the log past 1,000 pages copies them into the file before it returns, on the thread that
 * answers requests (the 202 of a push, the end of its import). Here a worker with a connection of
 * its own copies them meanwhile; readers and writers go on (PASSIVE). Bun only (bun:sqlite).
 */
export interface WalCheckpointer {
  /** A large commit just ended: checkpoint soon (requests made while one runs are merged). */
  request(): void;
  /** Closes the worker's connection (after a checkpoint under way) and ends the worker. */
  close(): Promise<void>;
}

/** Even with no request, the log is checkpointed this often (small writes add up too). */
const EVERY_MS = 1000;

/**
 * The worker, as source: a file of its own would have to be named to every bundler (the package,
 * the compiled binary), while a blob starts the same way everywhere Bun runs. Messages: `{open}`
 * (a path), "checkpoint" (answers "done"), "close" (answers "closed"). A busy or failed checkpoint
 * is left to the next one, or to SQLite's own past the connections' safety net.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
self.onmessage = (event) => {
  const m = event.data;
  if (typeof m === "object") {
    db = new Database(m.open);
    db.run("PRAGMA busy_timeout = 5000");
  } else if (m === "close") {
    db?.close();
    db = null;
    self.postMessage("closed");
  } else {
    try { db?.run("PRAGMA wal_checkpoint(PASSIVE)"); } catch {}
    self.postMessage("done");
  }
};`;

export function createWalCheckpointer(path: string): WalCheckpointer {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(url);
  worker.postMessage({ open: path });
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
    worker.postMessage("checkpoint");
  }
  const timer = setInterval(request, EVERY_MS);
  (timer as { unref?: () => void }).unref?.();
  (worker as { unref?: () => void }).unref?.();
  return {
    request,
    async close() {
      clearInterval(timer);
      await new Promise<void>((resolve) => {
        const late = setTimeout(resolve, 5000);
        closed = () => {
          clearTimeout(late);
          resolve();
        };
        worker.postMessage("close");
      });
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
}
