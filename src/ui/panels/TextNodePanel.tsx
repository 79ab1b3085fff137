import { formatWhen } from '../../core/index.ts';
import { useEffect, useRef, useState } from 'react';
import {
  noteAuthor,
  type FrameNode,
  type MaterialNode,
  type MirrorNode,
  type NoteNode,
} from '../../../protocol/index.ts';
import type { NodePatch } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { MirrorNodeExtras, RUNNER_LABEL } from '../atlas/index.ts';
import { useFocusWhenEmpty } from './use-focus-when-empty.ts';
import { MaterialImage } from './MaterialImage.tsx';

/** A text field that commits one edit when it loses focus (not one event per keystroke). */
function DraftField({
  nodeId,
  field,
  value,
  multiline,
  label,
  testId,
}: {
  nodeId: string;
  field: keyof NodePatch;
  value: string;
  multiline?: boolean;
  label: string;
  testId: string;
}) {
  const apply = useWeft((state) => state.apply);
  const [draft, setDraft] = useState(value);
  const typing = useRef<string | null>(null);
  // A newer value from elsewhere replaces the draft, unless this field is being edited (its blur commits it).
  useEffect(() => {
    if (typing.current !== nodeId) setDraft(value);
  }, [nodeId, value]);
  const textareaRef = useFocusWhenEmpty<HTMLTextAreaElement>(nodeId, multiline === true && value === '');
  const commit = () => {
    typing.current = null;
    if (draft !== value) apply({ type: 'edit-node', nodeId, patch: { [field]: draft } });
  };
  return (
    <label className="field">
      <span>{label}</span>
      {multiline ? (
        <textarea
          ref={textareaRef}
          className="textarea"
          rows={10}
          data-testid={testId}
          value={draft}
          onChange={(event) => {
            typing.current = nodeId;
            setDraft(event.target.value);
          }}
          onBlur={commit}
        />
      ) : (
        <input
          className="input"
          data-testid={testId}
          value={draft}
          onChange={(event) => {
            typing.current = nodeId;
            setDraft(event.target.value);
          }}
          onBlur={commit}
          onKeyDown={(event) => event.key === 'Enter' && commit()}
        />
      )}
    </label>
  );
}

export function TextNodePanel({ node }: { node: NoteNode | MaterialNode | FrameNode | MirrorNode }) {
  switch (node.kind) {
    case 'note':
      return (
        <>
          <DraftField nodeId={node.id} field="text" value={node.text} multiline label="Note" testId="note-input" />
          {noteAuthor(node) === 'app' && (
            <p className="hint" data-testid="note-by-weft-hint">
              Weft wrote this note: memory never takes facts from it. Once you edit it, it counts as your words.
            </p>
          )}
        </>
      );
    case 'frame':
      return (
        <>
          <DraftField nodeId={node.id} field="label" value={node.label} label="Frame label" testId="frame-input" />
          <p className="hint">Frames group nodes visually. They never enter any model's context.</p>
        </>
      );
    case 'material': {
      const provenance = node.provenance;
      return (
        <>
          <DraftField nodeId={node.id} field="title" value={node.title} label="Title" testId="material-title" />
          {node.provenance.type === 'image' && (
            <MaterialImage attachmentHash={node.provenance.attachmentHash} fileName={node.provenance.fileName} />
          )}
          <DraftField
            nodeId={node.id}
            field="text"
            value={node.text}
            multiline
            label="Text sent as material"
            testId="material-text"
          />
          <div className="hint" data-testid="material-provenance">
            {provenance.type === 'pdf' && (
              <>
                From {provenance.fileName}, {provenance.pages.length === 1 ? 'page' : 'pages'}{' '}
                {provenance.pages.join(', ')}.
              </>
            )}
            {provenance.type === 'url' && (
              <>
                Snapshot of{' '}
                <a href={provenance.finalUrl} target="_blank" rel="noreferrer">
                  {provenance.finalUrl}
                </a>
                , fetched {formatWhen(provenance.fetchedAt)}.
              </>
            )}
            {provenance.type === 'pasted' && <>Pasted text.</>}
            {provenance.type === 'file' && (
              <>
                Imported from {provenance.fileName} ({provenance.format}), {formatWhen(provenance.importedAt)}; document
                hash {provenance.documentHash.slice(0, 12)}….
              </>
            )}
            {provenance.type === 'image' && (
              <>
                Image {provenance.fileName} (stored once by hash {provenance.attachmentHash.slice(0, 12)}…).
              </>
            )}
          </div>
        </>
      );
    }
    case 'mirror':
      return (
        <>
          <DraftField
            nodeId={node.id}
            field="question"
            value={node.question}
            multiline
            label="Question (editable copy)"
            testId="mirror-question"
          />
          <DraftField
            nodeId={node.id}
            field="answer"
            value={node.answer}
            multiline
            label="Answer (editable copy)"
            testId="mirror-answer"
          />
          <p className="hint">
            Mirrored from {RUNNER_LABEL[node.source.runner] ?? node.source.runner} session {node.source.sessionId}, turn{' '}
            {node.source.turnNumber}. The source snapshot stays frozen.
          </p>
          <MirrorNodeExtras node={node} />
        </>
      );
  }
}
