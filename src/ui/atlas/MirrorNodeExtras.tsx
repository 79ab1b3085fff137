import type { MirrorNode } from '../../../protocol/index.ts';
import { isMirrorEdited, touchedFiles, plural, formatWhen } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { askWhy } from './atlas-loading.ts';
import { RUNNER_LABEL, pathsInText, whyTargetFor } from './format.ts';

/** The node panel's mirror section: source vs copy, the execution-record toggle, and "why this file". */
export function MirrorNodeExtras({ node }: { node: MirrorNode }) {
  const apply = useWeft((state) => state.apply);
  const setView = useWeft((state) => state.setView);
  const edited = isMirrorEdited(node);
  const files = touchedFiles(node.source);
  const mentioned = pathsInText(`${node.question}\n${node.answer}`).filter(
    (path) => !files.some((file) => file === path || file.endsWith(`/${path.replace(/^\.\//, '')}`)),
  );
  const steps = node.source.steps.length;
  return (
    <div className="mirror-extras" data-testid="mirror-extras">
      <div className="section-title">Source</div>
      <div className="hint">
        {RUNNER_LABEL[node.source.runner]} · turn {node.source.turnNumber}
        {node.source.delegatedBy ? ' of a subagent run' : ''} · {formatWhen(node.source.at)}
        {node.source.model ? ` · ${node.source.model}` : ''}
      </div>
      {edited ? (
        <div className="banner mirror-differs" data-testid="mirror-differs">
          Edited: this copy differs from its frozen source.
          <button
            className="button small"
            data-testid="mirror-restore"
            onClick={() =>
              apply({
                type: 'edit-node',
                nodeId: node.id,
                patch: { question: node.source.question, answer: node.source.answer },
              })
            }
          >
            Restore source text
          </button>
        </div>
      ) : (
        <div className="hint" data-testid="mirror-same">
          Same as the source.
        </div>
      )}
      {edited && (
        <details className="mirror-source">
          <summary>Show the frozen source</summary>
          <div className="mirror-source-text">
            <strong>Question</strong>
            <pre>{node.source.question}</pre>
            <strong>Answer</strong>
            <pre>{node.source.answer}</pre>
          </div>
        </details>
      )}
      <div className="section-title" style={{ marginTop: 14 }}>
        Execution record
      </div>
      {steps === 0 ? (
        <div className="hint">This turn ran no tools.</div>
      ) : (
        <>
          <label className="atlas-toggle">
            <input
              type="checkbox"
              data-testid="include-execution"
              checked={node.includeExecution}
              onChange={(event) =>
                apply({ type: 'edit-node', nodeId: node.id, patch: { includeExecution: event.target.checked } })
              }
            />
            Include the full execution record ({plural(steps, 'tool step')}) in context
          </label>
          <div className="hint">
            {node.includeExecution
              ? 'Every step enters context.'
              : 'Only one line naming the touched files enters context; their contents are left out.'}
          </div>
          <ol className="mirror-steps">
            {node.source.steps.map((step, index) => (
              <li key={index}>
                <code>{step.name}</code>{' '}
                <span className="hint">
                  {step.op}
                  {step.isError ? ' · error' : ''}
                </span>{' '}
                {step.inputSummary && <span className="mirror-step-input">{step.inputSummary.slice(0, 160)}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
      {(files.length > 0 || mentioned.length > 0) && (
        <>
          <div className="section-title" style={{ marginTop: 14 }}>
            Files
          </div>
          <ul className="mirror-files">
            {[...files, ...mentioned].map((file) => (
              <li key={file}>
                <code title={file}>{file}</code>
                <button
                  className="button small"
                  data-testid="why-this-file"
                  onClick={() => {
                    setView('why');
                    void askWhy(whyTargetFor(file));
                  }}
                >
                  Why this file
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** A small mark on the canvas card of a mirror node whose copy the person edited. */
export function MirrorCardMarks({ node }: { node: MirrorNode }) {
  const files = touchedFiles(node.source).length;
  return (
    <span className="mirror-marks">
      {isMirrorEdited(node) && (
        <span
          className="badge mirror-edited"
          data-testid="mirror-edited"
          title="The editable copy differs from the frozen source"
        >
          edited
        </span>
      )}
      {node.source.delegatedBy && <span className="badge mirror-subagent">subagent</span>}
      {files > 0 && (
        <span className="badge" title="Files the turn's tools touched">
          {plural(files, 'file')}
        </span>
      )}
    </span>
  );
}
