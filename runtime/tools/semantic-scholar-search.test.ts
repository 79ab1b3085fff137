import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedSemanticScholar,
  type ScriptedSemanticScholar,
} from '../../tests/support/scripted-semantic-scholar.ts';
import { semanticScholarSearch } from './semantic-scholar-search.ts';
import type { ScriptedPaper } from '../../tests/support/scripted-semantic-scholar.ts';

// C35 semantic_scholar_search against a scripted Semantic Scholar graph API on 127.0.0.1.
let scholar: ScriptedSemanticScholar;
const PAPERS: ScriptedPaper[] = [
  {
    paperId: '204e3073870fae3d05bcbc2f6a8e263d9b72e776',
    title: 'Attention is All you Need',
    authors: [{ authorId: '40348417', name: 'Ashish Vaswani' }],
    year: 2017,
    venue: 'Neural Information Processing Systems',
    externalIds: { ArXiv: '1706.03762', DBLP: 'conf/nips/VaswaniSPUJGKP17' },
  },
  {
    paperId: 'abc',
    title: 'A paper with a DOI',
    authors: [],
    year: null,
    venue: '',
    externalIds: { DOI: '10.1000/xyz', ArXiv: '1111.1111' },
  },
  { paperId: 'def', title: 'Only an id', authors: [{ name: 'Ann Author' }] },
];

beforeAll(async () => {
  scholar = await startScriptedSemanticScholar(PAPERS);
});
afterAll(() => scholar.close());
beforeEach(() => {
  scholar.queries.length = 0;
  scholar.status = null;
  scholar.body = null;
});

const options = () => ({ semanticScholarUrl: scholar.url, allowLoopbackTargets: true });

describe('semanticScholarSearch (C35)', () => {
  it('lists papers one per line with the steadiest link (DOI, else arXiv, else the paper page)', async () => {
    const text = await semanticScholarSearch({ query: 'attention', rows: 3 }, options());
    expect(text).toBe(
      [
        '1. Attention is All you Need — Ashish Vaswani (2017). Neural Information Processing Systems. https://arxiv.org/abs/1706.03762',
        '2. A paper with a DOI — unknown authors. https://doi.org/10.1000/xyz',
        '3. Only an id — Ann Author. https://www.semanticscholar.org/paper/def',
      ].join('\n'),
    );
    expect(scholar.queries).toEqual([
      { query: 'attention', limit: '3', fields: 'title,authors,year,venue,externalIds,url' },
    ]);
  });

  it('an answer with no hits (no `data`) says nothing was found', async () => {
    scholar.papers = [];
    try {
      expect(await semanticScholarSearch({ query: 'nothing' }, options())).toBe('No papers found for “nothing”.');
      expect(scholar.queries[0]?.limit).toBe('5');
    } finally {
      scholar.papers = PAPERS;
    }
  });

  it('bad input is tool-input-invalid; an answer that is not a search answer is tool-bad-answer', async () => {
    await expect(semanticScholarSearch({ query: 'x'.repeat(301) }, options())).rejects.toMatchObject({
      code: 'tool-input-invalid',
    });
    expect(scholar.queries).toHaveLength(0);
    for (const body of ['{"error":"bad"}', 'not json']) {
      scholar.body = body;
      await expect(semanticScholarSearch({ query: 'x' }, options())).rejects.toMatchObject({ code: 'tool-bad-answer' });
    }
  });

  it('a rate limit (HTTP 429) is fetch-failed; a loopback address without the tests-only switch is url-refused', async () => {
    scholar.status = 429;
    await expect(semanticScholarSearch({ query: 'x' }, options())).rejects.toMatchObject({ code: 'fetch-failed' });
    scholar.queries.length = 0;
    await expect(semanticScholarSearch({ query: 'x' }, { semanticScholarUrl: scholar.url })).rejects.toMatchObject({
      code: 'url-refused',
    });
    expect(scholar.queries).toHaveLength(0);
  });
});
