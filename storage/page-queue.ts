/**
 * Rows pushed as a read delivers them, taken as pages by one consumer: `push` never waits, so the
 * read goes at the database's pace and ends (its transaction with it) however slowly the pages are
 * taken; what is not taken yet stays here, at most the whole read, as a read into an array would.
 */
export class PageQueue<T> implements AsyncIterable<T[]> {
  private page: T[] = [];
  private readonly ready: T[][] = [];
  private ended = false;
  private failed: { error: unknown } | null = null;
  private abandoned = false;
  private wake: (() => void) | null = null;

  constructor(private readonly pageRows: number) {}

  push(row: T): void {
    if (this.abandoned) return;
    this.page.push(row);
    if (this.page.length >= this.pageRows) {
      this.ready.push(this.page);
      this.page = [];
      this.poke();
    }
  }

  /** The read is complete. */
  end(): void {
    if (this.page.length > 0) this.ready.push(this.page);
    this.page = [];
    this.ended = true;
    this.poke();
  }

  /** The read failed: the next page taken throws, even if some were read before (no half file). */
  fail(error: unknown): void {
    this.failed = { error };
    this.ended = true;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T[]> {
    try {
      for (;;) {
        if (this.failed) throw this.failed.error;
        const page = this.ready.shift();
        if (page) {
          yield page;
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    } finally {
      // Taken no further (ended, failed or abandoned): what is still read is dropped on arrival.
      this.abandoned = true;
      this.ready.length = 0;
      this.page = [];
    }
  }
}
