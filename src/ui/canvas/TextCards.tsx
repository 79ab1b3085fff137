import { attachmentPlainText, formatWhen } from '../../core/index.ts';
import { memo } from 'react';
import { Handle, NodeResizer, Position, type NodeProps } from '@xyflow/react';
import { noteAuthor, type MaterialNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { Markdown } from './Markdown.tsx';
import { AttachmentText, MirrorCardMarks, RUNNER_LABEL } from '../atlas/index.ts';
import { useDetailLevel, type DetailLevel } from './detail-level.ts';

/** A zoomed-out card: its kind and first line, or a dot (the card keeps its box, so the layout holds). */
function DetailCard(props: { id: string; kind: string; title: string; detail: DetailLevel; selected: boolean }) {
  return (
    <div
      className={`card ${props.kind} lod-${props.detail}${props.selected ? ' selected' : ''}`}
      data-testid="node-card"
      data-node-id={props.id}
      data-detail={props.detail}
    >
      <Handle type="target" position={Position.Left} />
      {props.detail === 'summary' && <div className="card-question lod-title">{props.title.split('\n')[0]}</div>}
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

function useCardState(id: string) {
  const node = useWeft((state) => state.graph?.nodes.get(id));
  const searchHit = useWeft((state) => state.searchHits.has(id));
  return { node, searchHit };
}

function classes(base: string, archived: boolean, selected: boolean, searchHit: boolean): string {
  return `card ${base}${archived ? ' archived' : ''}${selected ? ' selected' : ''}${searchHit ? ' search-hit' : ''}`;
}

export const NoteCard = memo(function NoteCard({ id, selected }: NodeProps) {
  const { node, searchHit } = useCardState(id);
  const detail = useDetailLevel();
  if (!node || node.kind !== 'note') return null;
  if (detail !== 'full')
    return <DetailCard id={id} kind="note" title={node.text} detail={detail} selected={selected} />;
  const note = node;
  return (
    <div className={classes('note', note.archived, selected, searchHit)} data-testid="node-card" data-node-id={id}>
      <Handle type="target" position={Position.Left} />
      <div className="card-header">
        <span className="card-kind">Note</span>
        {noteAuthor(note) === 'app' && (
          <span
            className="badge app-note"
            data-testid="note-by-weft"
            title="Weft wrote this note, so memory never takes it as your words. Edit it and it becomes yours."
          >
            Written by Weft
          </span>
        )}
        {note.archived && <span className="badge archived">Archived</span>}
      </div>
      <div className="card-body" style={{ borderTop: 0 }}>
        {note.text.trim() ? (
          <Markdown text={note.text} className="clamp" />
        ) : (
          <span className="hint">Empty note — edit it in the panel.</span>
        )}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

function provenanceLine(material: MaterialNode): string {
  const provenance = material.provenance;
  switch (provenance.type) {
    case 'pdf':
      return `${provenance.fileName} · ${provenance.pages.length === 1 ? 'page' : 'pages'} ${provenance.pages.join(', ')}`;
    case 'url':
      return `${new URL(provenance.finalUrl || provenance.url).host} · fetched ${formatWhen(provenance.fetchedAt)}`;
    case 'pasted':
      return 'Pasted text';
    case 'image':
      return `Image · ${provenance.fileName}`;
    case 'file':
      return `${provenance.fileName} · imported ${formatWhen(provenance.importedAt)}`;
  }
}

export const MaterialCard = memo(function MaterialCard({ id, selected }: NodeProps) {
  const { node, searchHit } = useCardState(id);
  const attachment = useWeft((state) => {
    const record = state.graph?.nodes.get(id);
    return record?.kind === 'material' && record.provenance.type === 'image'
      ? state.graph?.attachments.get(record.provenance.attachmentHash)
      : undefined;
  });
  if (!node || node.kind !== 'material') return null;
  const material = node;
  return (
    <div
      className={classes('material', material.archived, selected, searchHit)}
      data-testid="node-card"
      data-node-id={id}
    >
      <Handle type="target" position={Position.Left} />
      <div className="card-header">
        <span className="card-kind">Material</span>
        <span className="badge material">{material.provenance.type.toUpperCase()}</span>
        {material.archived && <span className="badge archived">Archived</span>}
      </div>
      <div className="card-question">{material.title || 'Untitled material'}</div>
      {attachment ? (
        <div className="card-body">
          <img
            alt={material.title}
            style={{ maxWidth: '100%', borderRadius: 6 }}
            src={`data:${attachment.mediaType};base64,${attachment.dataBase64}`}
          />
        </div>
      ) : (
        <div className="card-body">
          <div className="clamp" style={{ whiteSpace: 'pre-wrap' }}>
            {material.text.slice(0, 700)}
          </div>
        </div>
      )}
      <div className="card-footer">
        <span>{provenanceLine(material)}</span>
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

export const MirrorCard = memo(function MirrorCard({ id, selected }: NodeProps) {
  const { node, searchHit } = useCardState(id);
  const detail = useDetailLevel();
  if (!node || node.kind !== 'mirror') return null;
  if (detail !== 'full')
    return (
      <DetailCard
        id={id}
        kind="mirror"
        title={attachmentPlainText(node.question)}
        detail={detail}
        selected={selected}
      />
    );
  const mirror = node;
  return (
    <div className={classes('mirror', mirror.archived, selected, searchHit)} data-testid="node-card" data-node-id={id}>
      <Handle type="target" position={Position.Left} />
      <div className="card-header">
        <span className="card-kind">Mirrored turn</span>
        <span className="badge model">{RUNNER_LABEL[mirror.source.runner] ?? mirror.source.runner}</span>
        <MirrorCardMarks node={mirror} />
      </div>
      <div className="card-question">
        <AttachmentText text={mirror.question} length={400} />
      </div>
      <div className="card-body">
        <Markdown text={mirror.answer} className="clamp" />
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

export const FrameCard = memo(function FrameCard({ id, selected }: NodeProps) {
  const node = useWeft((state) => state.graph?.nodes.get(id));
  const apply = useWeft((state) => state.apply);
  if (!node || node.kind !== 'frame') return null;
  const frame = node;
  return (
    <div
      className="frame-node"
      data-testid="frame-node"
      data-node-id={id}
      style={{ opacity: frame.archived ? 0.4 : 1 }}
    >
      <NodeResizer
        isVisible={selected}
        minWidth={200}
        minHeight={120}
        onResizeEnd={(_, params) =>
          apply({
            type: 'move-node',
            nodeId: id,
            position: { x: params.x, y: params.y },
            size: { width: params.width, height: params.height },
          })
        }
      />
      <div className="frame-label" title={frame.label}>
        {frame.label}
      </div>
    </div>
  );
});
