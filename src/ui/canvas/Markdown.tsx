import { memo, useMemo } from 'react';
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Model text rendered as Markdown and sanitised before it touches the DOM. */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true })), [text]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
});
