import { ParlanceError } from "../errors.ts";
import type { RecordView } from "./views.ts";

/** 412: the record changed since the version the caller read. Carries the record as it is now. */
export class StaleRecordError extends ParlanceError {
  constructor(readonly current: RecordView | null) {
    super(
      "precondition_failed",
      "The record changed since you read it; review the current version and try again",
    );
  }
}

export const isStaleRecordError = (e: unknown): e is StaleRecordError => e instanceof StaleRecordError;
