import { recallForms } from '../../src/core/recall/index.ts';

/**
 * A recall term as an FTS5 query: its forms as exact words joined by OR (`("scatter" OR "scattered" OR …)`), so the
 * index finds every inflection the planner matches, streaming, without a stemmed copy of the index.
 */
export function ftsTerm(term: string): string {
  const forms = recallForms(term).map((form) => `"${form.replaceAll('"', '""')}"`);
  return forms.length === 1 ? forms[0]! : `(${forms.join(' OR ')})`;
}
