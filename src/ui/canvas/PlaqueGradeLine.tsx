import type { Plaque } from '../../../protocol/index.ts';
import { plaqueGrade } from '../../core/index.ts';

const LEVEL_LABEL: Record<ReturnType<typeof plaqueGrade>['conclusiveness'], string> = {
  settled: 'settled',
  tentative: 'tentative',
  open: 'open question',
};

/**
 * #29: map mode's line under a plaque — the kind of point the answer makes and how sure it is. Display-only, like
 * the plaque (never in a request or a fingerprint); a plaque from before #29 shows the rule's reading of its text.
 */
export function PlaqueGradeLine({ plaque }: { plaque: Plaque }) {
  const { summaryType, conclusiveness } = plaqueGrade(plaque);
  return (
    <div
      className={`plaque-grade level-${conclusiveness}`}
      data-testid="plaque-grade"
      data-summary-type={summaryType}
      data-conclusiveness={conclusiveness}
    >
      {summaryType} · {LEVEL_LABEL[conclusiveness]}
    </div>
  );
}
