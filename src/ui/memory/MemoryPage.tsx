import { useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { MemoryDocumentName, MemoryWriteResponse } from '../../../protocol/index.ts';
import { activityTone, currentLines, describeActivity } from '../../core/memory/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { downloadText } from '../panels/index.ts';
import { memoryClient } from '../store/index.ts';
import { MemoryLine } from './MemoryLine.tsx';
import { openOrigin } from './open-origin.ts';
import { TopicsSection } from './TopicsSection.tsx';
import { DossiersSection } from './DossiersSection.tsx';
import { JournalSection } from './JournalSection.tsx';
import { InboxSection } from './InboxSection.tsx';
import { PutAsideSection } from './PutAsideSection.tsx';
import { formatClock } from '../../core/index.ts';

const DOCUMENTS: { name: MemoryDocumentName; title: string }[] = [
  { name: 'preferences', title: 'Preferences' },
  { name: 'identity', title: 'Identity' },
];

/** The memory page (C14): both documents with provenance, refusals, the judge's activity, edits, export/import. */
export function MemoryPage() {
  const store = useWeftStore();
  const loaded = useStore(memoryClient.view, (view) => view.loaded);
  const error = useStore(memoryClient.view, (view) => view.error);
  const [adding, setAdding] = useState<Record<MemoryDocumentName, string>>({ preferences: '', identity: '' });
  const fileInput = useRef<HTMLInputElement>(null);
  if (!loaded) return <div className="empty-state">{error ?? 'Reading your memory…'}</div>;
  const { profile, revision, activity, judgeModelId } = loaded;

  /** A person edit: based on the revision shown; a coded message (409 when stale) instead of a silent loss. */
  async function edit(run: () => Promise<MemoryWriteResponse>): Promise<boolean> {
    try {
      await run();
      await memoryClient.refresh();
      return true;
    } catch (caught) {
      const { code, message } = describeError(caught);
      store.getState().toast('error', code, message);
      await memoryClient.refresh();
      return false;
    }
  }

  return (
    <div className="memory-page" data-testid="memory-page">
      <header className="memory-header">
        <h1>Memory</h1>
        <p className="hint" data-testid="memory-judge-note">
          {judgeModelId
            ? `After each question you ask, ${judgeModelId} is sent the exchange and these lines, and decides what is worth keeping; the rules in Weft have the last word.`
            : 'No decision model is set: rules on this machine decide, and nothing leaves it.'}{' '}
          Only your own words — your questions and the notes you wrote, never an answer or a note Weft wrote — can
          become a line. Every line says why it is here.
        </p>
        <div className="button-row">
          <button
            className="button small"
            data-testid="memory-export"
            onClick={() =>
              void memoryClient.api
                .exportMarkdown()
                .then((markdown) => downloadText('weft-memory.md', markdown, 'text/markdown'))
            }
          >
            Export Markdown
          </button>
          <button className="button small" data-testid="memory-import" onClick={() => fileInput.current?.click()}>
            Import Markdown
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".md,text/markdown"
            hidden
            data-testid="memory-import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file)
                void file.text().then((markdown) =>
                  edit(async () => {
                    const written = await memoryClient.api.importMarkdown(revision, markdown);
                    const refused = written.refused ?? [];
                    // Lines the import could not take in are named, never dropped silently.
                    if (refused.length > 0)
                      store
                        .getState()
                        .toast(
                          'info',
                          'memory-import-refused',
                          `Imported; not taken in (${refused.length}): ${refused.map((line) => `“${line.text}” (${line.code})`).join(', ')}`,
                        );
                    return written;
                  }),
                );
            }}
          />
        </div>
      </header>
      <InboxSection />
      <div className="memory-columns">
        {DOCUMENTS.map(({ name, title }) => (
          <section className="memory-document card-panel" key={name} data-testid={`memory-document-${name}`}>
            <h2>{title}</h2>
            <ul className="memory-lines">
              {currentLines(profile, name).map((line) => (
                <MemoryLine
                  key={line.id}
                  line={line}
                  profile={profile}
                  onEdit={(text) => edit(() => memoryClient.api.editLine(revision, line.id, text))}
                  onDelete={() => void edit(() => memoryClient.api.deleteLine(revision, line.id))}
                />
              ))}
            </ul>
            {currentLines(profile, name).length === 0 && <p className="hint">Nothing yet.</p>}
            <form
              className="memory-add"
              onSubmit={(event) => {
                event.preventDefault();
                void edit(() => memoryClient.api.addLine(revision, name, adding[name])).then(
                  (ok) => ok && setAdding({ ...adding, [name]: '' }),
                );
              }}
            >
              <input
                className="input"
                data-testid={`memory-add-${name}`}
                placeholder={`Add a line to ${title.toLowerCase()}…`}
                value={adding[name]}
                onChange={(event) => setAdding({ ...adding, [name]: event.target.value })}
              />
              <button className="button small" type="submit" disabled={!adding[name].trim()}>
                Add
              </button>
            </form>
          </section>
        ))}
      </div>
      <div className="memory-columns">
        <section className="card-panel" data-testid="memory-refusals">
          <h2>Refused</h2>
          <p className="hint">
            What you deleted, undid or rejected. No judge, rule, merge or import can bring it back.
          </p>
          <ul className="memory-lines">
            {profile.refusals.map((refusal) => (
              <li key={refusal.id} className="memory-refusal" data-testid="memory-refusal">
                <span>{refusal.text}</span>
                <span className="hint">
                  {refusal.kind === 'undone-admission'
                    ? 'undone'
                    : refusal.kind === 'topic'
                      ? 'topic'
                      : refusal.kind === 'rejected-proposal'
                        ? 'rejected'
                        : 'deleted'}
                </span>
                <button
                  className="button small ghost"
                  data-testid="memory-lift"
                  onClick={() => void edit(() => memoryClient.api.liftRefusal(revision, refusal.id))}
                >
                  Lift
                </button>
              </li>
            ))}
          </ul>
          {profile.refusals.length === 0 && <p className="hint">Nothing refused.</p>}
        </section>
        <TopicsSection />
        <DossiersSection />
        <PutAsideSection />
        <section className="card-panel" data-testid="memory-activity">
          <h2>Judge activity</h2>
          <ul className="memory-lines">
            {activity.slice(0, 50).map((entry) => (
              <li
                key={entry.id}
                className={`memory-activity tone-${activityTone(entry)}`}
                data-testid="memory-activity-entry"
                data-kind={entry.kind}
                data-reason={entry.reason ?? ''}
                data-path={entry.path ?? ''}
              >
                <span
                  className="memory-activity-label"
                  data-testid="memory-activity-label"
                  title={[entry.kind, entry.reason, entry.path].filter(Boolean).join(' · ')}
                >
                  {describeActivity(entry)}
                </span>
                {entry.text && <span className="memory-activity-text">“{entry.text}”</span>}
                <span className="hint">
                  {entry.path === 'judge' ? 'by the judge · ' : entry.path === 'rule' ? 'by the rules · ' : ''}
                  {formatClock(entry.at)}
                </span>
                {entry.canvasId && entry.nodeId && (
                  <button
                    className="button small ghost"
                    onClick={() => void openOrigin(store, entry.canvasId!, entry.nodeId!)}
                  >
                    open turn
                  </button>
                )}
              </li>
            ))}
          </ul>
          {activity.length === 0 && <p className="hint">The judge has not decided anything yet.</p>}
        </section>
        <JournalSection />
      </div>
    </div>
  );
}
