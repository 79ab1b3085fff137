/**
 * The live text of a turn is every message the agent writes, one after another: a message that follows another
 * starts after a blank line, so "Writing the notes." and "And the shared copy." do not run together.
 */
export class MessageSeparator {
  private wrote = false;
  private ended = false;

  /** The delta as it goes on screen: the first of a later message gets the blank line. */
  delta(text: string): string {
    const separated = this.wrote && this.ended ? `\n\n${text}` : text;
    this.wrote = true;
    this.ended = false;
    return separated;
  }

  /** A message ended (whether or not it wrote text). */
  end(): void {
    if (this.wrote) this.ended = true;
  }
}
