/**
 * One exchange as memory sees it. The type keeps the person's words apart from everything else that reached
 * the request, so no caller can hand the model's answer or a recalled excerpt in as evidence by mistake.
 */

/** Text the person wrote in this exchange: the question they asked, or a note they wrote on the canvas. */
export interface PersonText {
  kind: 'question' | 'note';
  text: string;
  nodeId: string;
}

/**
 * Text in the exchange that is not the person's words: the model's answer, a note the app wrote, a recall block, a mirrored agent turn
 * (an agent session's text, even the typed prompt, did not come from this canvas), a material, or the
 * `[Memory]` block itself. The judge may read it as context; it is never evidence.
 */
export interface OtherText {
  /**
   * `app-note`: a note Weft wrote (the demo note, a mirrored session's compaction note); `app-question`: the
   * question asked when a model or Weft wrote it (a fan-out sub-question kept as proposed, merge's synthesis).
   */
  kind: 'answer' | 'recall' | 'mirror' | 'material' | 'memory' | 'app-note' | 'app-question';
  text: string;
}

/** Where the exchange happened: becomes the origin of any line it writes. */
export interface ExchangeOrigin {
  canvasId: string;
  nodeId: string;
  versionId: string | null;
  /** The commit hash (C9) of the request that was sent. */
  commitHash: string | null;
  at: number;
}

export interface Exchange {
  origin: ExchangeOrigin;
  person: readonly PersonText[];
  other: readonly OtherText[];
}
