import { useMemo, useState } from 'react';
import { safePattern, unsupportedKeyword, versionCheckResults } from '../../core/index.ts';
import type { AnswerCheck, AnswerCheckKind, QuestionNode, Version } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';

const KINDS: { kind: AnswerCheckKind; label: string; placeholder: string }[] = [
  { kind: 'contains', label: 'Contains', placeholder: 'text the answer must contain' },
  { kind: 'not-contains', label: 'Does not contain', placeholder: 'text the answer must not contain' },
  { kind: 'regex', label: 'Matches a pattern', placeholder: 'regular expression, e.g. ^\\d{4}$' },
  { kind: 'number', label: 'Number equals', placeholder: 'the expected number' },
  { kind: 'json', label: 'Valid JSON for a schema', placeholder: '{"type": "object", "required": ["name"]}' },
  { kind: 'rubric', label: 'Rubric (judged by the decision model)', placeholder: 'e.g. cites at least one source' },
];

const OUTCOME_MARK = { pass: '✓', fail: '✕', error: '!', pending: '…' } as const;

/** The check the form describes, or why it cannot be added (a pattern outside the safe subset, a bad schema…). */
function draftCheck(kind: AnswerCheckKind, text: string, tolerance: string): AnswerCheck | string {
  const id = `check-${crypto.randomUUID()}`;
  const trimmed = text.trim();
  if (!trimmed) return 'Write what the check looks for.';
  switch (kind) {
    case 'contains':
    case 'not-contains':
      return { id, kind, text: trimmed };
    case 'rubric':
      return { id, kind, rubric: trimmed };
    case 'regex': {
      const pattern = safePattern(trimmed);
      return pattern.ok ? { id, kind, pattern: trimmed } : `Pattern refused: ${pattern.reason}.`;
    }
    case 'number': {
      const value = Number(trimmed);
      const within = Number(tolerance.trim() || '0');
      if (!Number.isFinite(value)) return 'The expected value is not a number.';
      if (!Number.isFinite(within) || within < 0) return 'The tolerance is a number of 0 or more.';
      return { id, kind, value, tolerance: within };
    }
    case 'json': {
      let schema: unknown;
      try {
        schema = JSON.parse(trimmed);
      } catch {
        return 'The schema is not JSON.';
      }
      const unsupported = unsupportedKeyword(schema);
      return unsupported
        ? `Schema keyword not supported: ${unsupported}.`
        : { id, kind, schema: schema as Record<string, unknown> };
    }
  }
}

/**
 * Issue 31: the question's checks — each with its result on the shown version — and a form to add one. Checks score
 * answers; they never enter a request or a fingerprint, so editing them turns nothing stale.
 */
export function ChecksSection({ node, version }: { node: QuestionNode; version: Version | undefined }) {
  const apply = useWeft((state) => state.apply);
  const graph = useWeft((state) => state.graph);
  const results = useMemo(
    () => (graph && version ? versionCheckResults(graph, node.id, version.id) : []),
    [graph, node.id, version],
  );
  const [kind, setKind] = useState<AnswerCheckKind>('contains');
  const [text, setText] = useState('');
  const [tolerance, setTolerance] = useState('0');
  const [refusal, setRefusal] = useState<string | null>(null);
  const checks = node.checks ?? [];
  const byId = new Map(results.map((result) => [result.check.id, result]));
  const setChecks = (next: AnswerCheck[]) => apply({ type: 'edit-node', nodeId: node.id, patch: { checks: next } });
  const add = () => {
    const check = draftCheck(kind, text, tolerance);
    if (typeof check === 'string') return setRefusal(check);
    if (setChecks([...checks, check])) {
      setText('');
      setRefusal(null);
    }
  };
  const entry = KINDS.find((candidate) => candidate.kind === kind)!;
  return (
    <div className="section" data-testid="checks-section">
      <div className="section-title">Checks</div>
      {checks.length === 0 && <div className="hint">No checks: add one to score every answer of this question.</div>}
      <ul className="check-list">
        {checks.map((check) => {
          const result = byId.get(check.id);
          const outcome = version && result ? result.outcome : 'pending';
          return (
            <li key={check.id} data-testid="check-result" data-outcome={outcome}>
              <span className={`check-mark check-${outcome}`} aria-label={outcome}>
                {OUTCOME_MARK[outcome]}
              </span>{' '}
              {result?.words ?? check.id}
              {result?.detail && <span className="hint"> · {result.detail}</span>}{' '}
              <button
                className="button link"
                data-testid="check-remove"
                onClick={() => setChecks(checks.filter((other) => other.id !== check.id))}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
      <div className="toolbar-row">
        <select
          className="select"
          data-testid="check-kind"
          value={kind}
          onChange={(event) => setKind(event.target.value as AnswerCheckKind)}
        >
          {KINDS.map((option) => (
            <option key={option.kind} value={option.kind}>
              {option.label}
            </option>
          ))}
        </select>
        <input
          className="input"
          data-testid="check-text"
          placeholder={entry.placeholder}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && add()}
        />
        {kind === 'number' && (
          <input
            className="input"
            data-testid="check-tolerance"
            aria-label="Tolerance"
            title="Tolerance (±)"
            style={{ width: 64 }}
            value={tolerance}
            onChange={(event) => setTolerance(event.target.value)}
          />
        )}
        <button className="button" data-testid="check-add" onClick={add}>
          Add check
        </button>
      </div>
      {refusal && (
        <div className="hint error" data-testid="check-refusal">
          {refusal}
        </div>
      )}
    </div>
  );
}
