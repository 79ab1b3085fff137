/** C32: the person's plaque actions (an edit is an ordinary `set-plaque` change through `apply`). */
export interface PlaqueActions {
  /** Writes a new plaque for one version of the open canvas (as after an ask); false when none was written. */
  regeneratePlaque(nodeId: string, versionId: string): Promise<boolean>;
  /**
   * The plaque of an answer kept outside the chat run (the agent lane's final text), written as after an ask when
   * the app writes plaques; false when none was written.
   */
  plaqueAfterAnswer(nodeId: string, versionId: string): Promise<boolean>;
}
