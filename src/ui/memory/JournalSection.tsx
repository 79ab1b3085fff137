import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStore } from 'zustand';
import {
  MemoryJournalVerdictSchema,
  type MemoryJournalEntry,
  type MemoryJournalVerdict,
  type MemoryJournalVerify,
} from '../../../protocol/index.ts';
import { describeJournalEntry, journalEntryEvidence, journalEntryRule } from '../../core/memory/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { journalApi } from './journal-api.ts';
import { openOrigin } from './open-origin.ts';
import { topicsChanged } from './topics-changed.ts';
import { formatWhen, plural } from '../../core/index.ts';

const PAGE = 100;

/** The verdict filter's choices as words (the option's value stays the code). */
const VERDICT_WORDS: Record<MemoryJournalVerdict, string> = {
  admitted: 'Admitted',
  refused: 'Refused',
  superseded: 'Superseded',
  undone: 'Undone',
  deleted: 'Deleted',
  edited: 'Edited',
  proposed: 'Proposed',
  labelled: 'Labelled',
  setting: 'Switches and imports',
};

/**
 * Memory's journals on the memory page (issue 27.4): every entry of the profile's and the topics' hash-chained
 * journals, newest first and windowed, each as a sentence with its rule, time and evidence turn; a verdict filter;
 * Verify asks the server to check both chains against their heads, as `weft verify` does for a canvas.
 */
export function JournalSection() {
  const store = useWeftStore();
  // A new read of the profile (every `memory-changed`: a judgement, refused ones included, an edit, an undo).
  const memoryRead = useStore(memoryClient.view, (view) => view.loaded);
  const topicsRevision = useStore(topicsChanged, (state) => state.revision);
  const [verdict, setVerdict] = useState<MemoryJournalVerdict | null>(null);
  const [entries, setEntries] = useState<MemoryJournalEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [checked, setChecked] = useState<MemoryJournalVerify | null>(null);
  const loading = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);

  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  // The first page again whenever the filter changes or either journal may have grown.
  useEffect(() => {
    let current = true;
    journalApi.page({ cursor: null, limit: PAGE, verdict }).then((page) => {
      if (!current) return;
      setEntries(page.entries);
      setNext(page.nextCursor);
      setTotal(page.total);
    }, fail);
    return () => {
      current = false;
    };
  }, [verdict, memoryRead, topicsRevision]);

  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 46,
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  const lastShown = rows.at(-1)?.index ?? -1;
  // Scrolled near the end of what is loaded: the next page.
  useEffect(() => {
    if (next === null || loading.current || lastShown < entries.length - 10) return;
    loading.current = true;
    journalApi
      .page({ cursor: next, limit: PAGE, verdict })
      .then((page) => {
        setEntries((shown) => [...shown, ...page.entries]);
        setNext(page.nextCursor);
      }, fail)
      .finally(() => (loading.current = false));
  }, [lastShown, next, entries.length]);

  async function openEvidence(entry: MemoryJournalEntry) {
    const evidence = journalEntryEvidence(entry.event)!;
    if (evidence.nodeId) return openOrigin(store, evidence.canvasId, evidence.nodeId);
    await store.getState().openCanvas(evidence.canvasId);
    store.getState().setView('canvas');
  }

  return (
    <section className="card-panel memory-journal" data-testid="memory-journal">
      <h2>Journal</h2>
      <p className="hint">
        Every decision on your profile and topics — admitted, refused, superseded, undone, deleted — with the rule that
        decided and the turn it rests on. Append-only and hash-chained; ids and codes only, never a line’s words.
      </p>
      <div className="toolbar-row">
        <select
          className="select"
          data-testid="journal-filter-verdict"
          value={verdict ?? ''}
          onChange={(event) => setVerdict(event.target.value ? (event.target.value as MemoryJournalVerdict) : null)}
        >
          <option value="">All verdicts</option>
          {MemoryJournalVerdictSchema.options.map((name) => (
            <option key={name} value={name}>
              {VERDICT_WORDS[name]}
            </option>
          ))}
        </select>
        <span className="hint" data-testid="journal-count">
          {plural(total, 'entry', 'entries')}
        </span>
        <span style={{ flex: 1 }} />
        <button
          className="button small"
          data-testid="journal-verify"
          onClick={() => void journalApi.verify().then(setChecked, fail)}
        >
          Verify
        </button>
      </div>
      {checked && (
        <ul className="memory-lines" data-testid="journal-verify-result" data-intact={String(checked.intact)}>
          {checked.journals.map((journal) => (
            <li
              key={journal.journal}
              className={`verify ${journal.verdict.status === 'intact' ? 'intact' : 'broken'}`}
              data-status={journal.verdict.status}
            >
              {journal.verdict.status === 'intact' ? '✓' : '✕'} {journal.file}: {journal.message}
            </li>
          ))}
        </ul>
      )}
      <div className="memory-journal-scroll" ref={scroller} data-testid="journal-scroll">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const entry = entries[row.index]!;
            const evidence = journalEntryEvidence(entry.event);
            return (
              <div
                key={`${entry.journal}.${entry.index}`}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className={`memory-activity memory-journal-entry verdict-${entry.verdict}${entry.event.meta.reason === 'duplicate' ? ' reason-duplicate' : ''}`}
                data-testid="journal-entry"
                data-verdict={entry.verdict}
                data-op={entry.event.op}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
              >
                <span
                  className="memory-activity-label"
                  title={`${entry.event.op} · ${entry.journal} journal #${entry.index + 1} · rule: ${journalEntryRule(entry.event)}`}
                >
                  {describeJournalEntry(entry)}
                </span>
                <span className="hint">{formatWhen(entry.event.at)}</span>
                {evidence && (
                  <button
                    className="button small ghost"
                    data-testid="journal-open"
                    onClick={() => void openEvidence(entry).catch(fail)}
                  >
                    {evidence.nodeId ? 'open turn' : 'open canvas'}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {entries.length === 0 && <p className="hint">Nothing recorded yet.</p>}
    </section>
  );
}
