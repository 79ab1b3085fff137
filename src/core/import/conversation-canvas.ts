import type { CanvasDocument } from '../../../protocol/index.ts';
import { applyChange } from '../apply-change.ts';
import type { GraphChange } from '../changes.ts';
import { upstreamSnapshot } from '../fingerprint.ts';
import { documentFromGraph, emptyGraph, type Graph } from '../graph.ts';
import { jsHashPort, type HashPort } from '../hash-port.ts';
import { gradedPlaque, ruleGrade } from '../plaque/plaque-grade.ts';
import { plaqueFrom, ruleLadder } from '../plaque/rule-plaque.ts';
import type { ImportedConversation, ImportedMessage } from './imported-conversation.ts';
import { planConversation, type PlannedQuestion } from './plan-conversation.ts';

export const IMPORT_COLUMN_GAP = 440;
export const IMPORT_ROW_GAP = 300;

export interface ConversationCanvasOptions {
  /** The import's own time: the fallback for messages without one. */
  now: number;
  newId: () => string;
  hash?: HashPort;
  /** Written into the `import` event so every canvas of one import can be found together. */
  importId: string;
}

export interface ConversationCanvasCounts {
  questions: number;
  versions: number;
  /** Places where the conversation forks into more than one question below (edits, continued regenerations). */
  forks: number;
  attachments: number;
}

export interface ConversationCanvas {
  document: CanvasDocument;
  counts: ConversationCanvasCounts;
}

/**
 * A past conversation as a new canvas, built only through core's typed changes: each of the person's messages a
 * question node wired solid below the one it followed, each reply a version (origin `imported`, its model and
 * time, no request hash: Weft never sent it), regenerations as versions and edits as branches, and an `import`
 * event at the end naming the source and what was made. Throws only on a change core refuses (a bug here).
 */
export function conversationCanvas(
  conversation: ImportedConversation,
  options: ConversationCanvasOptions,
): ConversationCanvas {
  const hash = options.hash ?? jsHashPort;
  const { newId } = options;
  const fallbackTime = validTime(conversation.createdAt) ?? options.now;
  let graph: Graph = emptyGraph({
    id: newId(),
    name: canvasName(conversation.title),
    workingDirectory: null,
    createdAt: fallbackTime,
  });
  const apply = (change: GraphChange, at: number): string[] => {
    const result = applyChange(graph, change, { now: at, newId, hash });
    if (!result.ok) throw result.error;
    graph = result.value.graph;
    return result.value.created;
  };
  const counts: ConversationCanvasCounts = { questions: 0, versions: 0, forks: 0, attachments: 0 };
  const roots = planConversation(conversation);
  const columns = layoutColumns(roots);

  const place = (planned: PlannedQuestion, parentId: string | null, depth: number) => {
    const at = validTime(planned.message.at) ?? fallbackTime;
    const nodeId = apply(
      {
        type: 'add-node',
        node: {
          kind: 'question',
          question: questionText(planned.message),
          position: { x: columns.get(planned)! * IMPORT_COLUMN_GAP, y: depth * IMPORT_ROW_GAP },
        },
      },
      at,
    )[0]!;
    counts.questions += 1;
    counts.attachments += planned.message.attachments.length;
    if (parentId !== null) apply({ type: 'wire', from: parentId, to: nodeId, kind: 'solid' }, at);
    const question = questionText(planned.message);
    let firstVersionId: string | null = null;
    for (const reply of planned.replies) {
      const versionId = newId();
      const versionAt = validTime(reply.at) ?? at;
      apply(
        {
          type: 'add-version',
          nodeId,
          select: reply === planned.current,
          version: {
            id: versionId,
            createdAt: versionAt,
            text: reply.text,
            question,
            model: reply.model ?? conversation.defaultModel,
            requestHash: null,
            ...upstreamSnapshot(graph, nodeId, hash),
            origin: 'imported',
            status: 'complete',
            branchOf: firstVersionId,
          },
        },
        versionAt,
      );
      // The rule's plaque (no model call), so map mode shows an imported answer's gist like any other.
      const ladder = ruleLadder(question, reply.text);
      if (ladder) {
        const plaque = gradedPlaque(
          plaqueFrom(ladder, { model: null, writtenAt: versionAt }),
          ruleGrade(ladder, reply.text),
        );
        apply({ type: 'set-plaque', nodeId, versionId, plaque }, versionAt);
      }
      firstVersionId ??= versionId;
      counts.versions += 1;
    }
    if (planned.children.length > 1) counts.forks += 1;
    for (const child of planned.children) place(child, nodeId, depth + 1);
  };
  for (const root of roots) place(root, null, 0);
  if (roots.length > 1) counts.forks += 1;

  apply(
    {
      type: 'record',
      event: {
        op: 'import',
        objectId: graph.canvas.id,
        meta: {
          importId: options.importId,
          source: conversation.source,
          conversationId: conversation.id.slice(0, 512),
          messages: conversation.messages.length,
          skippedMessages: conversation.skipped,
          questions: counts.questions,
          versions: counts.versions,
          forks: counts.forks,
          attachments: counts.attachments,
        },
      },
    },
    options.now,
  );
  return { document: documentFromGraph(graph), counts };
}

/** Attachments are named in the question, since the model saw them with it; their bytes are not in the export. */
function questionText(message: ImportedMessage): string {
  if (message.attachments.length === 0) return message.text;
  const notes = message.attachments.map((name) => `[Attachment: ${name} (not in the export)]`).join('\n');
  return message.text ? `${message.text}\n\n${notes}` : notes;
}

/** A leaf takes the next column; a question stands in its first child's column, so the main line runs straight down. */
function layoutColumns(roots: readonly PlannedQuestion[]): Map<PlannedQuestion, number> {
  const columns = new Map<PlannedQuestion, number>();
  let next = 0;
  const stack: { planned: PlannedQuestion; visited: boolean }[] = [...roots]
    .reverse()
    .map((planned) => ({ planned, visited: false }));
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.visited || entry.planned.children.length === 0) {
      const first = entry.planned.children[0];
      columns.set(entry.planned, first ? columns.get(first)! : next++);
      continue;
    }
    stack.push({ planned: entry.planned, visited: true });
    for (const child of [...entry.planned.children].reverse()) stack.push({ planned: child, visited: false });
  }
  return columns;
}

function canvasName(title: string): string {
  const trimmed = title.replace(/\s+/g, ' ').trim();
  return (trimmed || 'Imported conversation').slice(0, 200);
}

function validTime(value: number | null): number | null {
  return value !== null && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}
