/**
 * `Storage.exclusive` for stores one process owns (memory, SQLite): a promise chain per name, so
 * callers run one after another, in the order they asked.
 */
export function createLocalExclusive() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(name) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(name, tail);
    void tail.then(() => {
      if (tails.get(name) === tail) tails.delete(name);
    });
    return run;
  };
}
