import { noteAuthor, versionQuestionAuthor, type QuestionAuthor } from '../../../protocol/index.ts';
import { askedQuestion } from '../asked-question.ts';
import { fingerprintSession, upstreamParts } from '../fingerprint.ts';
import type { Graph } from '../graph.ts';
import { jsHashPort, type HashPort } from '../hash-port.ts';
import { recordedUpstreamParts } from '../recorded-upstream.ts';
import { failure, success, type Result } from '../result.ts';
import type { Exchange, OtherText, PersonText } from './exchange.ts';

/** Which exchange a caller says it is about: ids only, never its texts. */
export interface ExchangeClaim {
  canvasId: string;
  nodeId: string;
  versionId: string;
  /** The commit hash (C9) of the request the version was generated from. */
  commitHash: string;
}

/**
 * What the server recorded itself when it committed a request (its commit ledger): for which canvas and node, the
 * SHA-256 of the question it sent and of the answer it streamed to the end (null: not to the end), and who wrote
 * the question by the stored record at commit time (null: the record could not say).
 */
export interface RecordedCommit {
  canvasId: string;
  nodeId: string;
  questionHash: string;
  answerHash: string | null;
  questionAuthor: QuestionAuthor | null;
}

export type ExchangeLookupCode = 'exchange-unknown' | 'exchange-mismatch' | 'not-an-ask' | 'exchange-unrecorded';

export interface ExchangeLookupError {
  code: ExchangeLookupCode;
  message: string;
}

/**
 * The exchange as the stored canvas records it (C14 own words), so no caller decides which text is the person's:
 * the person's words are the question exactly as the version asked it, when the person wrote it
 * (`versionQuestionAuthor`: not a sub-question a model proposed or a question Weft wrote), and every note the person wrote
 * (`noteAuthor`) that reached that request unchanged (its part hash now equals the one the version recorded); the
 * answer, materials, mirrored turns, notes the app wrote and the [Memory] block (when the version sent it) are
 * context. A claim naming no stored version is `exchange-unknown`, one whose commit hash is not the version's
 * `exchange-mismatch`, a version that is not a complete ordinary ask (agent lane, demo, imported, manual,
 * failed) `not-an-ask`, and one that matches no commit the server recorded `exchange-unrecorded`. Who wrote the
 * question is the recorded commit's `questionAuthor` when the server could tell at commit time.
 */
export function exchangeFromCanvas(
  graph: Graph,
  claim: ExchangeClaim,
  options: {
    at: number;
    memoryBlock: string | null;
    hash?: HashPort;
    /** The server's commits of `claim.commitHash` (its ledger); the version must match one of them. */
    recorded: readonly RecordedCommit[];
    /** Words a model or Weft wrote on this canvas under any id, now or before (the server's record). */
    othersWords?: (text: string) => boolean;
  },
): Result<Exchange, ExchangeLookupError> {
  const node = graph.canvas.id === claim.canvasId ? graph.nodes.get(claim.nodeId) : undefined;
  const version = node?.kind === 'question' ? node.versions.find((each) => each.id === claim.versionId) : undefined;
  if (!node || node.kind !== 'question' || !version)
    return failure({ code: 'exchange-unknown', message: 'No such exchange is stored on that canvas.' });
  if (version.requestHash !== claim.commitHash)
    return failure({ code: 'exchange-mismatch', message: 'That version was not generated from that commit.' });
  if (version.origin !== 'generated' || version.status !== 'complete' || version.agent)
    return failure({ code: 'not-an-ask', message: 'Memory judges only a complete ordinary ask.' });
  // Everything above is the client's record; only a commit the server recorded, for this node, with this question
  // sent and this answer streamed, makes the version evidence (a version added by a plain save never is).
  const hash = options.hash ?? jsHashPort;
  const questionHash = hash.sha256Hex(askedQuestion(node, version.question));
  const answerHash = hash.sha256Hex(version.text);
  const matching = options.recorded.filter(
    (each) =>
      each.canvasId === claim.canvasId &&
      each.nodeId === claim.nodeId &&
      each.questionHash === questionHash &&
      each.answerHash === answerHash,
  );
  if (matching.length === 0)
    return failure({
      code: 'exchange-unrecorded',
      message: 'The server recorded no commit that asked this question and streamed this answer for that node.',
    });

  const now = new Map(upstreamParts(graph, node.id, fingerprintSession(hash)).map((part) => [part.nodeId, part.hash]));
  const person: PersonText[] = [];
  const other: OtherText[] = [{ kind: 'answer', text: version.text }];
  // A question a model proposed or Weft wrote, asked as it was, is context, not the person's words.
  // Who wrote the question by the server's record at commit time; the version's own word only where the record
  // could not say (the node or its edit was not saved yet), a word the save guard keeps from being flipped later.
  // Replays of one request are commits of their own: any of them that recorded another author outweighs the rest.
  const authors = matching.map((each) => each.questionAuthor);
  const recordedAuthor = authors.find((author) => author !== null && author !== 'person') ?? authors.find(Boolean);
  // Words a model or Weft wrote on this canvas (under any id, now or before) are theirs, whichever node claims them.
  const theirs = options.othersWords?.(version.question) ?? false;
  if (!theirs && (recordedAuthor ?? versionQuestionAuthor(node, version)) === 'person')
    person.push({ kind: 'question', text: version.question, nodeId: node.id });
  else other.push({ kind: 'app-question', text: version.question });
  for (const part of recordedUpstreamParts(graph, version).parts) {
    const upstream = graph.nodes.get(part.nodeId);
    // A part edited since the ask is not what was sent: its words vouch for nothing.
    if (!upstream || now.get(part.nodeId) !== part.hash) continue;
    if (upstream.kind === 'note') {
      if (noteAuthor(upstream) === 'person') person.push({ kind: 'note', text: upstream.text, nodeId: upstream.id });
      else other.push({ kind: 'app-note', text: upstream.text });
    } else if (upstream.kind === 'material') other.push({ kind: 'material', text: upstream.text });
    else if (upstream.kind === 'mirror')
      other.push({ kind: 'mirror', text: `${upstream.question}\n${upstream.answer}` });
  }
  if (version.memorySent && options.memoryBlock) other.push({ kind: 'memory', text: options.memoryBlock });
  return success({
    origin: {
      canvasId: claim.canvasId,
      nodeId: claim.nodeId,
      versionId: claim.versionId,
      commitHash: claim.commitHash,
      at: options.at,
    },
    person,
    other,
  });
}
