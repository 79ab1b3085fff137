/** URLs, arXiv ids and DOIs mentioned in text (C21: the index records what each turn cited). */

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`\\|^{}]+/gi;
const ARXIV_URL = /\barxiv\.org\/(?:abs|pdf|html)\/((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?\/\d{7}))/gi;
const ARXIV_TAG = /\barxiv:\s?((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?\/\d{7}))/gi;
const DOI_PATTERN = /\b(10\.\d{4,9}\/[^\s"'<>`]+)/g;
const ARXIV_WORD = /arxiv/i;
const TRAILING = /[.,;:!?'")\]}>*]+$/;

export interface References {
  urls: string[];
  arxivIds: string[];
  dois: string[];
}

function trimTrailing(value: string): string {
  let result = value.replace(TRAILING, '');
  // Give back closing parentheses that balance ones inside the match (Wikipedia-style URLs).
  let rest = value.slice(result.length);
  while (rest.startsWith(')') && (result.match(/\(/g) ?? []).length > (result.match(/\)/g) ?? []).length) {
    result += ')';
    rest = rest.slice(1);
  }
  return result;
}

export function findReferences(text: string): References {
  const urls = new Set<string>();
  const arxivIds = new Set<string>();
  const dois = new Set<string>();
  if (text.length === 0) return { urls: [], arxivIds: [], dois: [] };
  // Every pattern needs a literal that a plain substring search rules out far faster than the regex
  // scan (most turn texts cite nothing).
  if (text.includes('://')) {
    for (const match of text.matchAll(URL_PATTERN)) {
      const url = trimTrailing(match[0]);
      if (url.length > 10) urls.add(url);
    }
  }
  if (ARXIV_WORD.test(text)) {
    for (const pattern of [ARXIV_URL, ARXIV_TAG]) {
      for (const match of text.matchAll(pattern)) arxivIds.add(match[1]!.replace(/v\d+$/, ''));
    }
  }
  if (!text.includes('10.')) return { urls: [...urls], arxivIds: [...arxivIds], dois: [] };
  for (const match of text.matchAll(DOI_PATTERN)) {
    const doi = trimTrailing(match[1]!);
    if (doi.includes('/') && doi.length > 8) dois.add(doi);
  }
  return { urls: [...urls], arxivIds: [...arxivIds], dois: [...dois] };
}
