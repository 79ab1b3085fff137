import { useState } from 'react';
import type { Plaque, PlaqueRefusal, QuestionNode, Version } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { isReceiptModel } from '../store/index.ts';

/** Who wrote the plaque, in words (a refused ladder says why the rule wrote it instead). */
function writerLabel(plaque: Plaque, answeredBy: string): string {
  if (plaque.source === 'person') return 'Edited by you';
  if (plaque.source === 'model') return `Written by ${plaque.model ?? 'a model'}`;
  // The offline receipt has no answer to summarise: the rule's plaque is what was asked.
  if (isReceiptModel(answeredBy)) return 'The question (an offline receipt has no answer to summarise)';
  return plaque.refusal
    ? `First sentences (the model's summary was set aside: ${REFUSAL_WORDS[plaque.refusal]})`
    : 'First sentences';
}

/** Why a model's ladder was set aside, as a sentence a person reads (the code is in the tooltip, for bug reports). */
const REFUSAL_WORDS: Record<PlaqueRefusal, string> = {
  unreadable: 'its reply could not be read',
  'topic-not-in-takeaway': 'its topic was not in its takeaway',
  'sentence-missing': 'it named a sentence the answer does not have',
  'sentence-repeated': 'it named a sentence twice',
  'sentence-count': 'it picked too few or too many sentences',
  'too-long': 'its line was too long',
  'no-answer': 'the model did not answer',
};

/**
 * C32: the current version's plaque — topic, takeaway, reason and the verbatim abstract — with Edit and Regenerate.
 * Display only: the hint says so, because nothing here is sent to any model with this or a later question.
 */
export function PlaqueSection({ node, version }: { node: QuestionNode; version: Version }) {
  const apply = useWeft((state) => state.apply);
  const regenerate = useWeft((state) => state.regeneratePlaque);
  const [editing, setEditing] = useState<{ topic: string; takeaway: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const plaque = version.plaque;
  const save = () => {
    if (!plaque || !editing) return;
    const ok = apply({
      type: 'set-plaque',
      nodeId: node.id,
      versionId: version.id,
      plaque: {
        ...plaque,
        topic: editing.topic.trim(),
        takeaway: editing.takeaway.trim(),
        source: 'person',
        model: null,
      },
    });
    if (ok) setEditing(null);
  };
  return (
    <div className="section" data-testid="plaque-section">
      <div className="section-title">Plaque</div>
      {plaque && !editing && (
        <>
          <div data-testid="plaque-topic" className="plaque-topic-chip">
            {plaque.topic}
          </div>
          <div data-testid="plaque-takeaway">{plaque.takeaway}</div>
          {plaque.reason && <div className="hint">{plaque.reason}</div>}
          {plaque.abstract.length > 0 && (
            <ul className="changed-list" data-testid="plaque-abstract">
              {plaque.abstract.map((sentence, index) => (
                <li key={index}>“{sentence}”</li>
              ))}
            </ul>
          )}
          <div className="hint" data-testid="plaque-writer" title={plaque.refusal}>
            {writerLabel(plaque, version.model)} · shown on the map, never sent to a model
          </div>
        </>
      )}
      {!plaque && !editing && <div className="hint">No plaque yet.</div>}
      {editing && (
        <>
          <label className="field">
            <span>Topic (words of the takeaway)</span>
            <input
              className="input"
              data-testid="plaque-topic-input"
              value={editing.topic}
              onChange={(event) => setEditing({ ...editing, topic: event.target.value })}
            />
          </label>
          <label className="field">
            <span>Takeaway</span>
            <input
              className="input"
              data-testid="plaque-takeaway-input"
              value={editing.takeaway}
              onChange={(event) => setEditing({ ...editing, takeaway: event.target.value })}
            />
          </label>
        </>
      )}
      <div style={{ display: 'flex', gap: 6, marginTop: 6 }}>
        {editing ? (
          <>
            <button className="button" data-testid="plaque-save" onClick={save}>
              Save plaque
            </button>
            <button className="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            {plaque && (
              <button
                className="button"
                data-testid="plaque-edit"
                onClick={() => setEditing({ topic: plaque.topic, takeaway: plaque.takeaway })}
              >
                Edit
              </button>
            )}
            <button
              className="button"
              data-testid="plaque-regenerate"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void regenerate(node.id, version.id).finally(() => setBusy(false));
              }}
            >
              {busy ? 'Writing…' : plaque ? 'Regenerate' : 'Write plaque'}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
