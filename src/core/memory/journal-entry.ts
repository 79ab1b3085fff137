import type { EventRecord, MemoryJournalEntry, MemoryJournalVerdict } from '../../../protocol/index.ts';
import { admissionWords } from './verdict-codes.ts';

/**
 * What an event of the profile's or the topics' journal decided. Derived from its op and meta, so the journal
 * itself stays ids, codes and counts (C10) and the page, the route and the CLI name verdicts alike.
 */
export function journalVerdictOf(event: EventRecord): MemoryJournalVerdict {
  const meta = event.meta as Record<string, unknown>;
  switch (event.op) {
    case 'memory-judged':
      return meta.verdict === 'admitted' ? 'admitted' : 'refused';
    case 'memory-written':
      return typeof meta.replaced === 'number' && meta.replaced > 0 ? 'superseded' : 'admitted';
    case 'memory-undone':
      return 'undone';
    case 'memory-refused-by-person':
    case 'memory-rejected':
    case 'memory-exchange-unrecorded':
      return 'refused';
    case 'memory-proposed':
      return 'proposed';
    case 'memory-accepted':
      return 'admitted';
    case 'memory-edited':
      return meta.action === 'delete' ? 'deleted' : 'edited';
    case 'memory-put-aside':
      return 'deleted';
    case 'memory-restored':
      return 'edited';
    case 'topic-deleted':
    case 'topic-label-removed':
      return 'deleted';
    case 'topic-merged':
      return 'superseded';
    case 'topics-labelled':
      return 'labelled';
    case 'memory-switched':
    case 'memory-imported':
      return 'setting';
    default:
      return 'edited';
  }
}

/** The rule that decided, as its stable code: the admission or merge code, the path, the action. */
export function journalEntryRule(event: EventRecord): string {
  const meta = event.meta as Record<string, unknown>;
  const parts = [meta.reason, meta.fallback, meta.operation, meta.action, meta.path].filter(
    (part): part is string => typeof part === 'string' && part.length > 0,
  );
  return parts.length > 0 ? parts.join(' · ') : event.op;
}

/** The turn an entry rests on, when it names one: the canvas and, for a judged exchange, its node. */
export function journalEntryEvidence(event: EventRecord): { canvasId: string; nodeId: string | null } | null {
  const meta = event.meta as Record<string, unknown>;
  if (typeof meta.canvasId !== 'string' || meta.canvasId.length === 0) return null;
  const judged = event.op === 'memory-judged' || event.op === 'memory-exchange-unrecorded';
  const nodeId =
    judged && event.objectId.length > 0 ? event.objectId : typeof meta.nodeId === 'string' ? meta.nodeId : null;
  return { canvasId: meta.canvasId, nodeId };
}

const REFUSAL_NAMES: Record<string, string> = {
  'deleted-line': 'deleted line',
  'undone-admission': 'undone admission',
  topic: 'topic',
  'rejected-proposal': 'rejected proposal',
};

const KIND_NAMES: Record<string, string> = {
  'canvas-turn': 'canvas turn',
  'session-turn': 'session turn',
  'imported-message': 'imported message',
  'dossier-sentence': 'dossier sentence',
};

/** One sentence for people saying what the entry decided; the raw op stays for a tooltip. */
export function describeJournalEntry(entry: MemoryJournalEntry): string {
  const { event } = entry;
  const meta = event.meta as Record<string, unknown>;
  const text = (key: string, fallback: string) => {
    const value = meta[key];
    return typeof value === 'string' ? value : fallback;
  };
  const count = (value: unknown, one: string) =>
    `${typeof value === 'number' ? value : 0} ${one}${value === 1 ? '' : 's'}`;
  switch (event.op) {
    case 'memory-judged':
      return meta.verdict === 'admitted'
        ? `A ${text('category', 'fact')} fact from an ask was admitted by the ${text('path', 'rule')} path.`
        : `A ${text('category', 'fact')} fact from an ask was refused: ${typeof meta.reason === 'string' ? admissionWords(meta.reason) : 'no reason was recorded'}.`;
    case 'memory-written':
      return typeof meta.replaced === 'number' && meta.replaced > 0
        ? `A ${text('document', '?')} line was written, superseding ${count(meta.replaced, 'line')}.`
        : `A ${text('document', '?')} line was written (${text('operation', '?')}).`;
    case 'memory-undone':
      return `An admission was undone: ${count(meta.lines, 'line')} removed and refused.`;
    case 'memory-exchange-unrecorded':
      return 'An ask was refused: the server recorded no commit that asked and answered it.';
    case 'memory-refused-by-person':
      return `A ${REFUSAL_NAMES[text('kind', '')] ?? 'statement'} is now refused: it will not be admitted again.`;
    case 'memory-refusal-lifted':
      return `The person lifted the refusal of a ${REFUSAL_NAMES[text('kind', '')] ?? 'statement'}.`;
    case 'memory-edited':
      return meta.action === 'delete'
        ? `The person deleted a ${text('document', '?')} line.`
        : `The person ${meta.action === 'add' ? 'added' : 'edited'} a ${text('document', '?')} line.`;
    case 'memory-proposed':
      if (meta.kind === 'dossier-sentence') return 'A dossier update proposed a new sentence: it waits in the Inbox.';
      return `A ${text('category', 'fact')} fact from an ask was put in the Inbox by the ${text('path', 'rule')} path.`;
    case 'memory-accepted':
      if (meta.kind === 'dossier-sentence') return 'The person accepted a dossier sentence: it is in the dossier now.';
      return meta.auto === true
        ? `A ${text('category', 'fact')} fact was accepted automatically (Settings).`
        : `The person accepted a ${text('category', 'fact')} fact${meta.edited === true ? ' after editing it' : ''}.`;
    case 'memory-rejected':
      if (meta.kind === 'dossier-sentence') return 'The person rejected a dossier sentence: its words are put aside.';
      return `The person rejected a ${text('category', 'fact')} fact: it will not be proposed again.`;
    case 'memory-put-aside':
      return `A ${KIND_NAMES[text('kind', '')] ?? 'piece of content'} was put aside (${text('reason', '?')}): no read path brings its words back.`;
    case 'memory-restored':
      return `The person restored a ${KIND_NAMES[text('kind', '')] ?? 'piece of content'} that was put aside.`;
    case 'memory-switched':
      return `The [Memory] block was turned ${meta.enabled ? 'on' : 'off'} for a canvas.`;
    case 'memory-imported':
      return `A Markdown import left ${count(meta.lines, 'line')} and ${count(meta.refusals, 'refusal')}.`;
    case 'topic-created':
      return 'A topic was created.';
    case 'topic-renamed':
      return 'A topic was renamed.';
    case 'topic-merged':
      return `A topic was merged into another, moving ${count(meta.labels, 'label')}.`;
    case 'topic-deleted':
      return `A topic was deleted with ${count(meta.labels, 'label')}.`;
    case 'topic-label-removed':
      return 'The person removed a topic from a turn.';
    case 'topics-labelled':
      return `A labelling run labelled ${count(meta.labelled, 'turn')}.`;
    default:
      return `Recorded ${event.op}.`;
  }
}

export interface JournalQuery {
  /** From a previous page's `nextCursor`: the entries after it. */
  cursor: string | null;
  limit: number;
  verdict: MemoryJournalVerdict | null;
  op: string | null;
}

/** Newest first: by time, then the topics journal before the profile's, then later in its chain first. */
function newerFirst(a: MemoryJournalEntry, b: MemoryJournalEntry): number {
  return b.event.at - a.event.at || b.journal.localeCompare(a.journal) || b.index - a.index;
}

const cursorOf = (entry: MemoryJournalEntry) => `${entry.event.at}.${entry.journal}.${entry.index}`;

/**
 * One page of both journals, newest first. The cursor names the last entry given (time, journal, place in its
 * chain), not an offset, so entries appended between two pages neither repeat nor shift the next page.
 */
export function journalPage(
  journals: Readonly<Record<MemoryJournalEntry['journal'], readonly EventRecord[]>>,
  query: JournalQuery,
): { entries: MemoryJournalEntry[]; nextCursor: string | null; total: number } {
  const all: MemoryJournalEntry[] = [];
  for (const journal of ['profile', 'topics'] as const)
    journals[journal].forEach((event, index) => {
      const verdict = journalVerdictOf(event);
      if ((query.verdict === null || verdict === query.verdict) && (query.op === null || event.op === query.op))
        all.push({ journal, index, verdict, event });
    });
  all.sort(newerFirst);
  const start = query.cursor === null ? 0 : all.findIndex((entry) => afterCursor(entry, query.cursor!));
  const from = start < 0 ? all.length : start;
  const entries = all.slice(from, from + query.limit);
  const last = entries.at(-1);
  return { entries, nextCursor: last && from + entries.length < all.length ? cursorOf(last) : null, total: all.length };
}

function afterCursor(entry: MemoryJournalEntry, cursor: string): boolean {
  const [at, journal, index] = cursor.split('.');
  const mark = { journal, index: Number(index), event: { at: Number(at) } } as MemoryJournalEntry;
  return newerFirst(mark, entry) < 0;
}
