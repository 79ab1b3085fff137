import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { QuestionCard } from './QuestionCard.tsx';
import { FrameCard, MaterialCard, MirrorCard, NoteCard } from './TextCards.tsx';
import { WireEdge } from './WireEdge.tsx';

// Module constants: React Flow remounts every node when these objects change identity.
export const nodeTypes: NodeTypes = {
  question: QuestionCard,
  note: NoteCard,
  material: MaterialCard,
  frame: FrameCard,
  mirror: MirrorCard,
};

export const edgeTypes: EdgeTypes = { wire: WireEdge };
