import type { QuestionNode } from '../../../protocol/index.ts';
import { checkResultsOf, setAnswers } from '../../core/index.ts';

/** A model's initials: the letters starting its name's words after the provider (`openai/gpt-4o-mini` → `GM`). */
export function modelInitials(model: string): string {
  const name = model.slice(model.lastIndexOf('/') + 1);
  const letters = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return (
    letters
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?'
  );
}

/**
 * Issue 31, part 2: a set's answers on the card — one chip per answer with its model's initials (the selected one
 * marked) and, where checks ran, a pass/fail dot per check.
 */
export function SetAnswerStrip({ node }: { node: Pick<QuestionNode, 'versions' | 'currentVersionId' | 'modelSet'> }) {
  const set = setAnswers(node);
  if (!set) return null;
  return (
    <span className="set-strip" data-testid="set-strip" title={`${set.answers.length} answers of one model set`}>
      {set.answers.map((answer) => (
        <span
          key={answer.id}
          className={`set-chip${answer.id === node.currentVersionId ? ' selected' : ''}`}
          data-testid="set-chip"
          title={`${answer.setAnswer!.model} · sample ${answer.setAnswer!.sample}`}
        >
          {modelInitials(answer.setAnswer!.model)}
          {checkResultsOf(answer).map((result) => (
            <span
              key={result.checkId}
              className={`set-dot ${result.passed ? 'pass' : 'fail'}`}
              data-testid="set-check-dot"
              title={`${result.label}: ${result.passed ? 'pass' : 'fail'}`}
            />
          ))}
        </span>
      ))}
    </span>
  );
}
