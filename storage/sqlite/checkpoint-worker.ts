/**
 * A thread of its own that copies the SQLite write-ahead log back into the database file
 * (`PRAGMA wal_checkpoint(PASSIVE)`) on a connection of its own: see `createWalCheckpointer`.
 */
import { Database } from "bun:sqlite";

declare const self: {
  onmessage: ((event: MessageEvent<CheckpointMessage>) => void) | null;
  postMessage(message: unknown): void;
};

export type CheckpointMessage = { open: string } | "checkpoint" | "close";

let db: Database | null = null;

self.onmessage = (event) => {
  const message = event.data;
  if (typeof message === "object") {
    db = new Database(message.open);
    // Waits out another connection's checkpoint instead of failing; PASSIVE never waits for writers.
    db.run("PRAGMA busy_timeout = 5000");
    return;
  }
  if (message === "close") {
    db?.close();
    db = null;
    self.postMessage("closed");
    return;
  }
  try {
    db?.run("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // Busy or interrupted: the next request, or SQLite's own automatic checkpoint, does it.
  }
  self.postMessage("done");
};
