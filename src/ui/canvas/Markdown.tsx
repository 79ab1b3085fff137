import { memo, useEffect, useMemo, useReducer } from 'react';
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { useWeftStore } from '../kit/index.ts';
import { copyText } from '../commands/index.ts';
import { highlightCode, highlighter, loadHighlighter, onHighlighterLoaded } from './highlighter.ts';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Code blocks get a copy button and, once highlight.js has loaded, colours; tables are wrapped to scroll. */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }: Tokens.Code) {
      const language = (lang ?? '').trim().split(/\s+/)[0] || undefined;
      const body = highlightCode(text, language) ?? escape(text);
      const languageClass = language ? ` language-${escape(language)}` : '';
      return (
        `<div class="code-block"><button type="button" class="code-copy" data-testid="copy-code">Copy</button>` +
        `<pre><code class="hljs${languageClass}">${body}</code></pre></div>`
      );
    },
  },
});

const FENCE = /(^|\n)\s*(```|~~~)/;

/** Model text rendered as Markdown and sanitised before it touches the DOM. */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const store = useWeftStore();
  const hasCode = FENCE.test(text);
  const [highlighted, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (!hasCode || highlighter()) return;
    const stop = onHighlighterLoaded(rerender);
    void loadHighlighter();
    return stop;
  }, [hasCode]);
  const html = useMemo(
    () => DOMPurify.sanitize(markdown.parse(text, { async: false })),
    // `highlighted` changes once the highlighter has arrived, so code blocks are parsed again in colour.
    [text, highlighted],
  );
  return (
    <div
      className={className}
      onClick={(event) => {
        const button = (event.target as HTMLElement).closest('.code-copy');
        const code = button?.parentElement?.querySelector('code')?.textContent;
        if (!button || code == null) return;
        event.stopPropagation();
        void copyText(store.getState(), code, 'the code');
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});
