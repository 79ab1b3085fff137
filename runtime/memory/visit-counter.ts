/** Additions per canvas per visit (the constitution's limit of three), counted by the server across tabs. */
export class VisitCounter {
  private readonly counts = new Map<string, number>();

  private key(visit: { canvasId: string; visitId: string }): string {
    return `${visit.canvasId}\u0000${visit.visitId}`;
  }

  count(visit: { canvasId: string; visitId: string }): number {
    return this.counts.get(this.key(visit)) ?? 0;
  }

  add(visit: { canvasId: string; visitId: string }): void {
    this.counts.set(this.key(visit), this.count(visit) + 1);
  }
}
