import { randomUUID } from 'node:crypto';
import {
  WeftError,
  type Dossier,
  type DossierMode,
  type DossierSentenceProposal,
  type DroppedSentence,
} from '../../protocol/index.ts';
import { normaliseText } from '../../src/core/index.ts';
import type { NewSentence } from '../../src/core/dossiers/index.ts';
import type { DossierDatabase } from './dossier-database.ts';

/** What accepting needs of the dossier store (its read and its locked write), named here to keep imports one way. */
interface DossierVersions {
  read(topicId: string): Dossier | null;
  writeVersion(write: {
    topicId: string;
    mode: DossierMode;
    modelId: string | null;
    baseVersion: number;
    dossier: Dossier;
    dropped: DroppedSentence[];
    turnsRead: readonly string[];
    factsRead: readonly string[];
  }): unknown;
}

interface ProposalRow {
  id: string;
  topic_id: string;
  section: DossierSentenceProposal['section'];
  text: string;
  citations: string;
  proposed_at: number;
}

const proposalOf = (row: ProposalRow): DossierSentenceProposal => ({
  id: row.id,
  topicId: row.topic_id,
  section: row.section,
  text: row.text,
  citations: JSON.parse(row.citations) as string[],
  proposedAt: row.proposed_at,
});

/**
 * Dossier sentences waiting for review (issue 29.1), beside the dossiers in `dossiers.sqlite`: a run with
 * `memoryAutoAccept.dossierSentences` off files its new sentences here instead of writing them. Accepting one
 * writes the next dossier version with it (the store's lock); rejecting marks it, and the caller puts its words
 * aside so no later run brings them back.
 */
export class SentenceProposals {
  constructor(
    private readonly database: DossierDatabase,
    private readonly dossiers: DossierVersions,
    private readonly options: { now?: () => number; newId?: () => string } = {},
  ) {}

  /** Files the new sentences of a run; one with the same words already waiting for the topic is not filed twice. */
  propose(topicId: string, sentences: readonly NewSentence[]): DossierSentenceProposal[] {
    return this.database
      .transaction(() => {
        const waiting = new Set(this.pending(topicId).map((proposal) => normaliseText(proposal.text)));
        const filed: DossierSentenceProposal[] = [];
        for (const sentence of sentences) {
          const normal = normaliseText(sentence.text);
          if (waiting.has(normal)) continue;
          waiting.add(normal);
          const proposal: DossierSentenceProposal = {
            id: (this.options.newId ?? randomUUID)(),
            topicId,
            section: sentence.section,
            text: sentence.text,
            citations: sentence.citations,
            proposedAt: (this.options.now ?? Date.now)(),
          };
          this.database
            .prepare(
              "INSERT INTO sentence_proposals(id, topic_id, section, text, citations, proposed_at, state) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
            )
            .run(
              proposal.id,
              topicId,
              proposal.section,
              proposal.text,
              JSON.stringify(proposal.citations),
              proposal.proposedAt,
            );
          filed.push(proposal);
        }
        return filed;
      })
      .immediate();
  }

  /** The sentences waiting, newest first; `topicId` narrows to one topic. */
  pending(topicId?: string): DossierSentenceProposal[] {
    const rows = this.database
      .prepare(
        topicId === undefined
          ? "SELECT * FROM sentence_proposals WHERE state = 'pending' ORDER BY seq DESC"
          : "SELECT * FROM sentence_proposals WHERE state = 'pending' AND topic_id = ? ORDER BY seq DESC",
      )
      .all(...(topicId === undefined ? [] : [topicId])) as ProposalRow[];
    return rows.map(proposalOf);
  }

  /**
   * One page of the sentences waiting, newest first, after `cursor` (the id of the previous page's last one, kept in
   * place by its row even when decided since; an unknown id reads from the top); `nextCursor` null on the last page.
   */
  page(query: { cursor: string | null; limit: number }): {
    proposals: DossierSentenceProposal[];
    nextCursor: string | null;
    total: number;
  } {
    const rows = this.database
      .prepare(
        `SELECT * FROM sentence_proposals WHERE state = 'pending'
           AND seq < COALESCE((SELECT seq FROM sentence_proposals WHERE id = ?), 9007199254740991)
         ORDER BY seq DESC LIMIT ?`,
      )
      .all(query.cursor, query.limit + 1) as ProposalRow[];
    const proposals = rows.slice(0, query.limit).map(proposalOf);
    const { total } = this.database
      .prepare("SELECT COUNT(*) AS total FROM sentence_proposals WHERE state = 'pending'")
      .get() as { total: number };
    return { proposals, nextCursor: rows.length > query.limit ? (proposals.at(-1)?.id ?? null) : null, total };
  }

  /** Accepts one: the next version of its topic's dossier holds it (under the proposal's id), written under the lock. */
  accept(id: string): { proposal: DossierSentenceProposal; version: number } {
    return this.database
      .transaction(() => {
        const proposal = this.waiting(id);
        const current = this.dossiers.read(proposal.topicId);
        const base = current ?? {
          format: 'weft.dossier' as const,
          topicId: proposal.topicId,
          version: 0,
          writtenAt: 0,
          sections: { what: [], decisions: [], status: [], open: [] },
        };
        const sentence = { id: proposal.id, text: proposal.text, citations: proposal.citations };
        const dossier = {
          ...base,
          version: base.version + 1,
          writtenAt: (this.options.now ?? Date.now)(),
          sections: { ...base.sections, [proposal.section]: [...base.sections[proposal.section], sentence] },
        };
        this.dossiers.writeVersion({
          topicId: proposal.topicId,
          mode: 'update',
          modelId: null,
          baseVersion: base.version,
          dossier,
          dropped: [],
          turnsRead: [],
          factsRead: [],
        });
        this.database.prepare("UPDATE sentence_proposals SET state = 'accepted' WHERE id = ?").run(id);
        return { proposal, version: dossier.version };
      })
      .immediate();
  }

  /** Rejects one: kept as rejected; the caller puts its words aside (reason `rejected`). */
  reject(id: string): DossierSentenceProposal {
    return this.database
      .transaction(() => {
        const proposal = this.waiting(id);
        this.database.prepare("UPDATE sentence_proposals SET state = 'rejected' WHERE id = ?").run(id);
        return proposal;
      })
      .immediate();
  }

  private waiting(id: string): DossierSentenceProposal {
    const row = this.database.prepare("SELECT * FROM sentence_proposals WHERE id = ? AND state = 'pending'").get(id) as
      ProposalRow | undefined;
    if (!row)
      throw new WeftError('dossier-sentence-unknown', 'No dossier sentence with that id is waiting for review.', 404);
    return proposalOf(row);
  }
}
