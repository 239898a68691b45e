/**
 * What an adapter does with an error that means "the store cannot answer right now": it becomes
 * ParlanceError "unavailable" (503 with Retry-After), so an outage is told apart from a bug (500).
 * Each adapter says which errors those are; everything else passes as it was thrown.
 */
import { ParlanceError } from "../core/errors.ts";

export const storageUnavailable = (cause: unknown) =>
  new ParlanceError(
    "unavailable",
    "Storage is unavailable; retry shortly",
    cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
  );

/**
 * The ports' methods that answer at once or not at all (`findByHashNow`, `getNow`, `consumeNow`:
 * core/ports.ts). They never throw or wait, so the adapters' wrappers (this translation, the write
 * gate's retry, the outage gate) hand them on as they are: one frame less on every small request.
 */
export const answersNow = (name: string): boolean => name.endsWith("Now");

/** The same object with every method's failures that `isUnavailable` recognises made "unavailable". */
export function translateUnavailable<T extends object>(
  target: T,
  isUnavailable: (error: unknown) => boolean,
): T {
  const translate = (error: unknown): never => {
    throw isUnavailable(error) ? storageUnavailable(error) : error;
  };
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    wrapped[name] =
      typeof value === "function" && !answersNow(name)
        ? (...args: unknown[]) => {
            try {
              const result = (value as (...a: unknown[]) => unknown).apply(target, args);
              return result instanceof Promise ? result.catch(translate) : result;
            } catch (e) {
              translate(e);
            }
          }
        : value;
  }
  return wrapped as T;
}
