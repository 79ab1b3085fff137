import type { ToolDeclaration } from '../../../protocol/index.ts';

/** C35: the tool declarations the request offers the model; they are hashed with the messages. */
export function DeclaredTools({ declarations }: { declarations: readonly ToolDeclaration[] }) {
  if (declarations.length === 0) return null;
  return (
    <details className="preview-message" data-testid="preview-tools">
      <summary className="preview-head">
        Tools offered: {declarations.map((declaration) => declaration.name).join(', ')} (in the hash)
      </summary>
      {declarations.map((declaration) => (
        <div key={declaration.name} className="preview-text" data-testid="preview-tool">
          <code>{declaration.name}</code> — {declaration.description}
          <pre>{JSON.stringify(declaration.inputSchema, null, 2)}</pre>
        </div>
      ))}
      <div className="hint">Results a tool gives back stay on the answer; later questions get the answer only.</div>
    </details>
  );
}
