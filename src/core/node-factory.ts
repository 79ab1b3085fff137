import type { CanvasNode } from '../../protocol/index.ts';
import type { NodeDraft } from './changes.ts';

/** Fills the defaults a new node gets; the draft's id wins over the generated one. */
export function nodeFromDraft(draft: NodeDraft, id: string, now: number): CanvasNode {
  const base = {
    id,
    createdAt: now,
    position: draft.position ? { x: draft.position.x, y: draft.position.y } : { x: 0, y: 0 },
    size: draft.size ? { width: draft.size.width, height: draft.size.height } : null,
    archived: false,
    archivedAt: null,
    excludedParts: [] as string[],
  };
  switch (draft.kind) {
    case 'question':
      return {
        ...base,
        kind: 'question',
        question: draft.question,
        questionAuthor: draft.questionAuthor ?? 'person',
        versions: [],
        currentVersionId: null,
        autoRerun: draft.autoRerun ? { ...draft.autoRerun } : { enabled: false, rounds: 1 },
        model: draft.model ?? null,
        attachments: [...(draft.attachments ?? [])],
        ...(draft.role ? { role: { ...draft.role } } : {}),
        ...(draft.passage ? { passage: { ...draft.passage } } : {}),
      };
    case 'note':
      return { ...base, kind: 'note', text: draft.text, author: draft.author ?? 'person' };
    case 'material':
      return { ...base, kind: 'material', title: draft.title, text: draft.text, provenance: draft.provenance };
    case 'frame':
      return { ...base, kind: 'frame', label: draft.label };
    case 'mirror':
      return {
        ...base,
        kind: 'mirror',
        source: draft.source,
        question: draft.question ?? draft.source.question,
        answer: draft.answer ?? draft.source.answer,
        includeExecution: draft.includeExecution ?? false,
      };
  }
}

/** Which patch fields each kind accepts. */
export const EDITABLE_FIELDS: Record<CanvasNode['kind'], readonly string[]> = {
  question: [
    'question',
    'model',
    'attachments',
    'role',
    'rolePick',
    'highlights',
    'highlightMode',
    'includeFootprints',
    'agentGrants',
    'tools',
    'mcpTools',
    'recall',
    'memoryReading',
    'modelSet',
    'checks',
  ],
  note: ['text'],
  material: ['title', 'text'],
  frame: ['label'],
  mirror: ['question', 'answer', 'includeExecution'],
};
