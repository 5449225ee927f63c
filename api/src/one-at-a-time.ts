/**
 * Work run one piece at a time in this process, each after the one before whatever its
 * outcome: the election's lifecycle changes (`deps.lifecycle`: two clicks never declare or
 * start twice) and the integrity checks (services/accountability/ballot-integrity.ts).
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.catch(() => undefined).then(work);
    this.last = next;
    return next;
  }

  /** Resolves once the work queued so far has settled, whatever its outcome. */
  async settled(): Promise<void> {
    await this.last.catch(() => undefined);
  }
}
