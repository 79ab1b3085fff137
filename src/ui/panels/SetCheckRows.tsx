import type { Version } from '../../../protocol/index.ts';
import { checkResultsOf } from '../../core/index.ts';

/**
 * Issue 31, part 2: the checks' results as a row per check under the Compare view's columns (pass/fail per answer).
 * Renders nothing while no answer of the set has a check result.
 */
export function SetCheckRows({ answers }: { answers: readonly Version[] }) {
  const results = answers.map((answer) => new Map(checkResultsOf(answer).map((result) => [result.checkId, result])));
  const checks = new Map<string, string>();
  for (const byCheck of results) for (const [id, result] of byCheck) checks.set(id, result.label);
  if (checks.size === 0) return null;
  return (
    <table className="set-check-rows" data-testid="set-check-rows">
      <tbody>
        {[...checks].map(([id, label]) => (
          <tr key={id}>
            <th scope="row">{label}</th>
            {results.map((byCheck, index) => {
              const result = byCheck.get(id);
              return (
                <td key={answers[index]!.id} data-testid="set-check-result">
                  {result === undefined ? '–' : result.passed ? 'pass' : 'fail'}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
