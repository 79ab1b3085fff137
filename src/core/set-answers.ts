import type { QuestionNode, Version } from '../../protocol/index.ts';

/** One ask of a model set as the Compare view shows it: its answers in the set's order and the context they share. */
export interface SetAnswers {
  setId: string;
  contextHash: string;
  /** Model by model (in the set's order), sample by sample. */
  answers: Version[];
}

/**
 * Issue 31: the set a Compare view opens on — the one the selected version belongs to, else the node's latest ask
 * of a set; null when the node has none. Versions are appended as answers finish, several at a time, so the answers
 * are put back in the set's order: its models as the node's set lists them (others after, by name), then samples.
 */
export function setAnswers(node: Pick<QuestionNode, 'versions' | 'currentVersionId' | 'modelSet'>): SetAnswers | null {
  let setId = node.versions.find((version) => version.id === node.currentVersionId)?.setAnswer?.setId;
  for (let index = node.versions.length - 1; setId === undefined && index >= 0; index -= 1)
    setId = node.versions[index]!.setAnswer?.setId;
  if (setId === undefined) return null;
  const answers = node.versions.filter((version) => version.setAnswer?.setId === setId);
  const listed = node.modelSet?.models ?? [];
  const rank = (model: string) => (listed.includes(model) ? listed.indexOf(model) : listed.length);
  answers.sort((a, b) => {
    const first = a.setAnswer!;
    const second = b.setAnswer!;
    return (
      rank(first.model) - rank(second.model) || first.model.localeCompare(second.model) || first.sample - second.sample
    );
  });
  return { setId, contextHash: answers[0]!.setAnswer!.contextHash, answers };
}
