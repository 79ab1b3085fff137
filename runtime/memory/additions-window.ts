/** How long a visit lasts as the server counts it: the constitution's "three additions per canvas per visit". */
export const VISIT_WINDOW_MS = 60 * 60 * 1000;

/**
 * Profile additions per canvas within the last `VISIT_WINDOW_MS` of the server's own clock, in this launch of
 * the server (a new launch token starts a new count). Counted by the server from what it wrote: no id a client
 * sends can open a new visit.
 */
export class AdditionsWindow {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly windowMs = VISIT_WINDOW_MS,
  ) {}

  private recent(canvasId: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.times.get(canvasId) ?? []).filter((at) => at > since);
    this.times.set(canvasId, kept);
    return kept;
  }

  /** Additions written on this canvas within the window that ends now. */
  count(canvasId: string): number {
    return this.recent(canvasId).length;
  }

  add(canvasId: string): void {
    this.recent(canvasId).push(this.now());
  }
}
