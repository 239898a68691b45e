/**
 * Work on the event loop that can take longer than this gives it back between slices of about
 * this length (imports, their checks, a push's parse), so that a small request waits at most
 * about this long behind it.
 */
export const SLICE_MS = 8;

/** One turn of the event loop: timers and I/O run before the work goes on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
