import { questionAuthor, type CanonicalRequest, type GenerateRequest } from '../protocol/index.ts';
import type { CommitFields } from '../runtime/fs/index.ts';
import { askedQuestion } from '../src/core/index.ts';
import type { ServerContext } from './server-context.ts';

/** The question a canonical request carries: the first text part of its final message (compile puts it last). */
export function requestQuestion(request: CanonicalRequest): string | null {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return null;
  const part = last.content.find((each) => each.type === 'text');
  return part?.type === 'text' ? part.text : null;
}

/**
 * What the ledger records about a request for a canvas's question node, checked against the stored canvas before
 * the commit (issue 27.3). Refused when the stored canvas holds that id as something other than a question, or the
 * request carries no question. Who wrote the question is taken from the stored node when its stored text is the one
 * sent; otherwise (a node not saved yet, or an edit not saved yet — the edit path makes a question the person's)
 * the record cannot say, and memory falls back to the version's own `questionAuthor`, which the save guard keeps
 * from being flipped afterwards.
 */
export async function commitTarget(
  context: Pick<ServerContext, 'canvases' | 'hash'>,
  target: NonNullable<GenerateRequest['target']>,
  request: CanonicalRequest,
): Promise<{ ok: true; fields: Omit<CommitFields, 'requestHash'> } | { ok: false; message: string }> {
  const question = requestQuestion(request);
  if (question === null) return { ok: false, message: 'The request carries no question for that node.' };
  const stored = await context.canvases.read(target.canvasId).catch(() => null);
  const node = stored?.document.nodes.find((each) => each.id === target.nodeId);
  if (node && node.kind !== 'question')
    return { ok: false, message: `Node ${target.nodeId} of canvas ${target.canvasId} is not a question.` };
  const author = node && askedQuestion(node, node.question) === question ? questionAuthor(node) : null;
  return {
    ok: true,
    fields: {
      canvasId: target.canvasId,
      nodeId: target.nodeId,
      questionHash: context.hash.sha256Hex(question),
      questionAuthor: author,
    },
  };
}
