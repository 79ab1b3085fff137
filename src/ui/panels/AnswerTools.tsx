import { useEffect, useRef, useState } from 'react';
import { useEscape, useWeftStore } from '../kit/index.ts';
import { manualVersion } from '../../core/index.ts';
import type { QuestionNode, Version } from '../../../protocol/index.ts';
import { shortModel } from '../store/index.ts';
import { copyText } from '../commands/index.ts';
import { VersionCompare } from './VersionCompare.tsx';

const label = (node: QuestionNode, version: Version) => `v${node.versions.indexOf(version) + 1}`;

/** Under the answer: copy it or its hash, edit it as a new manual version, compare it with another version. */
export function AnswerTools({ node, version }: { node: QuestionNode; version: Version }) {
  const store = useWeftStore();
  const [mode, setMode] = useState<'idle' | 'edit' | 'compare'>('idle');
  const [draft, setDraft] = useState(version.text);
  const others = node.versions.filter((candidate) => candidate.id !== version.id);
  const [otherId, setOtherId] = useState<string | null>(null);
  const other = others.find((candidate) => candidate.id === otherId) ?? others[others.length - 1];

  useEscape(mode === 'compare', () => setMode('idle'));
  // The editor opens under a long answer, often below the panel's fold: bring all of it into view, ready to type.
  const editor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mode !== 'edit' || !editor.current) return;
    editor.current.scrollIntoView({ block: 'nearest' });
    editor.current.querySelector('textarea')?.focus({ preventScroll: true });
  }, [mode]);

  const save = () => {
    const change = manualVersion(node, version.id, draft);
    if (!change.ok) {
      store.getState().toast('error', change.error.code, change.error.message);
      return;
    }
    if (store.getState().apply(change.value)) setMode('idle');
  };

  return (
    <div className="answer-tools" data-testid="answer-tools">
      <div className="button-row">
        <button
          className="button small"
          data-testid="copy-answer"
          onClick={() => void copyText(store.getState(), version.text, 'the answer')}
        >
          Copy answer
        </button>
        {version.requestHash && (
          <button
            className="button small"
            data-testid="copy-hash"
            title={version.requestHash}
            onClick={() => void copyText(store.getState(), version.requestHash!, 'the full request hash')}
          >
            Copy hash
          </button>
        )}
        <button
          className="button small"
          data-testid="edit-answer"
          aria-pressed={mode === 'edit'}
          onClick={() => {
            setDraft(version.text);
            setMode(mode === 'edit' ? 'idle' : 'edit');
          }}
        >
          Edit
        </button>
        {others.length > 0 && (
          <button
            className="button small"
            data-testid="compare-versions"
            aria-pressed={mode === 'compare'}
            onClick={() => setMode(mode === 'compare' ? 'idle' : 'compare')}
          >
            Compare…
          </button>
        )}
      </div>
      {mode === 'edit' && (
        <div className="answer-editor" ref={editor}>
          <textarea
            className="textarea"
            data-testid="answer-editor"
            value={draft}
            rows={Math.min(16, Math.max(5, draft.split('\n').length + 1))}
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="hint">
            Saved as a new <strong>manual</strong> version; {label(node, version)} is kept as it is.
          </div>
          <div className="button-row">
            <button
              className="button primary small"
              data-testid="save-manual-version"
              disabled={draft === version.text}
              onClick={save}
            >
              Save as new version
            </button>
            <button className="button small" onClick={() => setMode('idle')}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {mode === 'compare' && other && (
        <div className="overlay" onClick={() => setMode('idle')}>
          <div
            className="dialog wide"
            role="dialog"
            aria-label="Compare versions"
            data-testid="compare-dialog"
            onClick={(event) => event.stopPropagation()}
          >
            <h2>Compare versions</h2>
            <label className="model-row">
              <span>Compare with</span>
              <select
                className="select"
                data-testid="compare-with"
                value={other.id}
                onChange={(event) => setOtherId(event.target.value)}
              >
                {others.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {label(node, candidate)} · {candidate.origin === 'manual' ? 'edited' : shortModel(candidate.model)}
                  </option>
                ))}
              </select>
            </label>
            <VersionCompare
              older={node.versions.indexOf(other) < node.versions.indexOf(version) ? other : version}
              newer={node.versions.indexOf(other) < node.versions.indexOf(version) ? version : other}
              label={(candidate) => label(node, candidate)}
            />
            <div className="actions">
              <button className="button" data-testid="compare-close" onClick={() => setMode('idle')}>
                Close
              </button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
