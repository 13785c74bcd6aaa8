/** The emulator's clock: wall time plus an offset that tests can move forward. */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError('advanceClock: ms must be a finite number >= 0');
    this.offsetMs += ms;
    return this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  resetOffset(): void {
    this.offsetMs = 0;
  }
}
