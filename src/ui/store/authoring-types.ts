/** A fan-out proposal the person edits before any node is made. */
export interface SubQuestionProposal {
  questions: string[];
  /** `model`: the node's model proposed them; `rule`: the rule fallback (the offline receipt model, or no usable answer). */
  path: 'model' | 'rule';
  model: string | null;
}

export interface AuthoringActions {
  /** C33: a synthesis question wired from each selected node; returns its id. */
  mergeSelection(): string | null;
  /** C33: a conclusion question above the selected chain, wired from its last node; returns its id. */
  condenseSelection(): string | null;
  /** C33: sub-questions for a node, from its model (or the rule fallback), for the person to edit. */
  proposeSubQuestions(nodeId: string): Promise<SubQuestionProposal | null>;
  /**
   * C33: makes the edited sub-questions as nodes wired from the source; returns their ids. `proposed` is the list
   * as proposed: a line kept unchanged is the model's (or Weft's, on the rule path), not the person's (C14).
   */
  fanOut(
    nodeId: string,
    questions: string[],
    path: SubQuestionProposal['path'],
    proposed?: readonly string[],
  ): string[];
  /** C30: a new question about a passage of a node's current answer, wired from it; returns its id. */
  branchFromPassage(sourceId: string, passage: { start: number; end: number; text: string }): string | null;
}
