import type { Actor } from "./principal.ts";
import type { ImportSummary } from "./types.ts";

/**
 * What a host application can subscribe to with `parlance.on(name, listener)`. Events are emitted
 * in the process that did the work, after it was committed: on a store several instances share,
 * each instance hears about the jobs it ran itself, not about its neighbours'.
 */
export interface ParlanceEvents {
  /** An import job committed its writes. */
  "job.completed": {
    jobId: string;
    orgId: string;
    projectId: string;
    language: string;
    summary: ImportSummary;
    at: string;
  };
  /** An import job ended without writing anything; `message` is what GET /jobs/{id} shows. */
  "job.failed": {
    jobId: string;
    orgId: string;
    projectId: string;
    /** null when the job carried no payload to read a language from. */
    language: string | null;
    message: string;
    at: string;
  };
  /**
   * Rows of one language changed (created, updated or deleted), whatever changed them. Emitted once
   * per commit, and only when something changed: a push of identical values is silent.
   */
  "translations.changed": {
    orgId: string;
    projectId: string;
    language: string;
    created: number;
    updated: number;
    deleted: number;
    /** An import job, or (for writers that edit rows one by one) the person or app that did it. */
    cause: { kind: "import"; jobId: string } | { kind: "edit"; actor: Actor };
    at: string;
  };
}

export type EventName = keyof ParlanceEvents;
export type Listener<N extends EventName> = (event: ParlanceEvents[N]) => void | Promise<void>;

export interface EventBus {
  /** Calls `listener` on every `name` event from now on; returns the function that stops it. */
  on<N extends EventName>(name: N, listener: Listener<N>): () => void;
  /**
   * Calls the listeners of `name` in the order they subscribed. Never throws: a listener that
   * throws or rejects is reported to `onListenerError` and the others still run, because the work
   * the event reports is already committed and must not look failed to its caller.
   */
  emit<N extends EventName>(name: N, event: ParlanceEvents[N]): void;
}

/**
 * A tiny in-process event bus: no port, no adapter, nothing process-wide; each createParlance has
 * its own and hands it to the use cases that change data, as it hands the import runner to push.
 * A use case emits after its commit, never before; e.g. a workspace edit wired as
 * `editRecord: (p, input) => editRecord(deps, events, p, input)` ends with
 * `events.emit("translations.changed", { …, cause: { kind: "edit", actor: p.actor } })`.
 */
export function createEventBus(onListenerError: (name: EventName, error: unknown) => void): EventBus {
  const listeners = new Map<EventName, Set<(event: unknown) => void | Promise<void>>>();
  return {
    on(name, listener) {
      // Wrapped, so the same function subscribed twice is two subscriptions, each stopped alone.
      const entry = (event: unknown) => listener(event as never);
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(name, event) {
      const set = listeners.get(name);
      if (!set) return;
      for (const listener of [...set]) {
        try {
          const result = listener(event);
          if (result instanceof Promise) result.catch((e: unknown) => onListenerError(name, e));
        } catch (e) {
          onListenerError(name, e);
        }
      }
    },
  };
}
