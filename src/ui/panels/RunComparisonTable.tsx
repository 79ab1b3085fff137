import type { RunComparison, RunComparisonRow } from '../../core/index.ts';

function changed(value: boolean | null): string {
  return value === null ? '—' : value ? 'changed' : 'same';
}

function numbers(row: RunComparisonRow): string {
  if (row.numberChanged === null) return '—';
  return `${row.original?.number ?? '—'} → ${row.rerun?.number ?? '—'}`;
}

/**
 * Issue 31: the Run comparison as a table — per question the run answered, upstream first, whether the checks'
 * verdicts and the extracted number changed between the person's answer and the run's — and the first question
 * where the two runs diverge. `weft compare <canvas> --run <name>` prints the same rows.
 */
export function RunComparisonTable({
  comparison,
  onFocus,
}: {
  comparison: RunComparison;
  onFocus: (nodeId: string) => void;
}) {
  const first = comparison.rows.find((row) => row.nodeId === comparison.firstDivergence);
  return (
    <div className="run-comparison" data-testid="run-comparison">
      <p data-testid="run-first-divergence">
        {first ? (
          <>
            First divergence:{' '}
            <button className="link" onClick={() => onFocus(first.nodeId)}>
              {first.question.slice(0, 80)}
            </button>{' '}
            ({comparison.diverged} of {comparison.rows.length} questions diverged)
          </>
        ) : (
          `The runs agree on every question compared (${comparison.rows.length} answered by the run).`
        )}
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>#</th>
            <th>Question</th>
            <th>Number</th>
            <th>Checks</th>
          </tr>
        </thead>
        <tbody>
          {comparison.rows.map((row, index) => (
            <tr key={row.nodeId} data-testid="run-comparison-row" data-diverged={row.diverged ? 'true' : 'false'}>
              <td>{index + 1}</td>
              <td>
                <button className="link" onClick={() => onFocus(row.nodeId)}>
                  {row.question.slice(0, 80)}
                </button>
              </td>
              <td>{numbers(row)}</td>
              <td>{changed(row.checksChanged)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
