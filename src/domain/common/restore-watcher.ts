/**
 * Tells a restored database from ordinary writes of another process: the store keeps a marker
 * that only a restore changes (`Store.restoreMarker`). `check()` runs on every "anything may
 * have changed" signal of the change feed's `store` topic; when the marker differs from the one
 * seen before, `onRestore` drops what was derived from the old content.
 */
export interface RestoreWatcherOptions {
  read(): Promise<string | null>;
  onRestore(): void;
  log(msg: string, err?: unknown): void;
}

export class RestoreWatcher {
  /** The marker last read; undefined until the first read succeeded. */
  private known: string | null | undefined = undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly primed: Promise<void>;

  constructor(private readonly options: RestoreWatcherOptions) {
    this.primed = options.read().then(
      (marker) => {
        this.known = marker;
      },
      () => undefined,
    );
  }

  /** Reads the marker (one read at a time; a signal during a read reads once more after it). */
  check(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      await this.primed;
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async readOnce(): Promise<void> {
    let marker: string | null;
    try {
      marker = await this.options.read();
    } catch (error) {
      this.options.log('restore check: the store could not be read (checked again on the next change)', error);
      return;
    }
    const before = this.known;
    this.known = marker;
    // Without an earlier reading there is nothing to compare with: this one is the baseline.
    if (before === undefined || before === marker) return;
    try {
      this.options.onRestore();
    } catch (error) {
      this.options.log('restore check: reloading after a restore failed', error);
    }
  }
}
