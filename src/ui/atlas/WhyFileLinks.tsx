import type { CanvasNode } from '../../../protocol/index.ts';
import { currentAnswer } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { askWhy } from './atlas-loading.ts';
import { pathsInText, whyTargetFor } from './format.ts';

function textOf(node: CanvasNode): string {
  switch (node.kind) {
    case 'question':
      return `${node.question}\n${currentAnswer(node)?.text ?? ''}`;
    case 'note':
      return node.text;
    case 'material':
      return `${node.title}\n${node.text.slice(0, 20_000)}`;
    default:
      return '';
  }
}

/** "Why this file" for paths a question, note or material mentions (mirror nodes have their own section). */
export function WhyFileLinks({ node }: { node: CanvasNode }) {
  const setView = useWeft((state) => state.setView);
  if (node.kind === 'mirror' || node.kind === 'frame') return null;
  const paths = pathsInText(textOf(node));
  if (paths.length === 0) return null;
  return (
    <div className="section" data-testid="why-file-links">
      <div className="section-title">Files mentioned</div>
      <ul className="mirror-files">
        {paths.map((path) => (
          <li key={path}>
            <code title={path}>{path}</code>
            <button
              className="button small"
              data-testid="why-this-file"
              onClick={() => {
                setView('why');
                void askWhy(whyTargetFor(path));
              }}
            >
              Why this file
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
