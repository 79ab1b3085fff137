import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Readable text of an HTML page (Readability on linkedom), falling back to the body's text. */
export function extractReadableText(html: string, url: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const fallbackTitle = document.querySelector('title')?.textContent?.trim() ?? '';
  try {
    // Readability reads documentURI/baseURI for relative links; linkedom leaves them unset.
    Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
    const article = new Readability(document, { charThreshold: 100 }).parse();
    if (article?.textContent?.trim()) {
      return { title: article.title?.trim() || fallbackTitle, text: normaliseWhitespace(article.textContent) };
    }
  } catch {
    /* fall back to plain body text */
  }
  const { document: fresh } = parseHTML(html);
  for (const element of fresh.querySelectorAll('script, style, noscript, template')) element.remove();
  return { title: fallbackTitle, text: normaliseWhitespace(fresh.body?.textContent ?? '') };
}

export function normaliseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
