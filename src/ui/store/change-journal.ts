import type { LocalStep } from '../../core/index.ts';

/**
 * The open canvas's local steps that its durable record does not hold yet, in order. A save that the server
 * refuses as based on an old revision (409) replays them onto the newer record (`rebaseSteps`), so no edit is lost;
 * a save that lands drops the steps it held.
 */
export class ChangeJournal {
  private canvasId: string | null = null;
  private steps: { position: number; step: LocalStep }[] = [];
  private position = 0;

  /** A canvas was opened or adopted whole: nothing of it is unsaved. */
  reset(canvasId: string | null): void {
    this.canvasId = canvasId;
    this.steps = [];
  }

  /** Notes a step on `canvasId`; returns the journal position after it (what the save of this state holds). */
  record(canvasId: string, step: LocalStep): number {
    if (this.canvasId !== canvasId) this.reset(canvasId);
    this.position += 1;
    this.steps.push({ position: this.position, step });
    return this.position;
  }

  /** Steps a page that is gone left unacknowledged, taken over at `positions` (see `claimPending`). */
  restore(canvasId: string, entries: readonly { position: number; step: LocalStep }[]): void {
    if (this.canvasId !== canvasId) this.reset(canvasId);
    this.steps.push(...entries);
    this.position = Math.max(this.position, ...entries.map((entry) => entry.position));
  }

  /** The position the current state is at: a save of it holds every step up to here. */
  current(): number {
    return this.position;
  }

  /** The save holding the steps up to `position` landed. */
  acknowledge(canvasId: string, position: number): void {
    if (this.canvasId === canvasId) this.steps = this.steps.filter((entry) => entry.position > position);
  }

  pending(canvasId: string): LocalStep[] {
    return this.canvasId === canvasId ? this.steps.map((entry) => entry.step) : [];
  }
}
