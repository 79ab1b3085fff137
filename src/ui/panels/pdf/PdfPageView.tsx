import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from '../pdf-text.ts';

/** Sharper than 2× costs memory on large pages without a visible gain. */
const MAX_PIXEL_RATIO = 2;

export interface PdfPageViewProps {
  document: PDFDocumentProxy;
  number: number;
  /** Page width on screen in CSS pixels. */
  width: number;
  /** Size of an unrendered page (width / height), so the scroll height is right before rendering. */
  aspect: number;
  /** The scrolling element: pages render when they come near its view. */
  root: Element | null;
}

/**
 * One PDF page: a canvas with pdf.js's text layer over it, so the real page shows and its text can
 * be selected. Renders only once it scrolls near the view, so a long document opens at once.
 */
export function PdfPageView({ document, number, width, aspect, root }: PdfPageViewProps) {
  const frame = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const [height, setHeight] = useState(width / aspect);
  const [state, setState] = useState<'waiting' | 'rendering' | 'ready' | 'failed'>('waiting');

  useEffect(() => {
    const element = frame.current;
    if (!element || visible) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
      },
      { root, rootMargin: '300px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [root, visible]);

  useEffect(() => {
    const element = frame.current;
    if (!visible || !element) return;
    let cancelled = false;
    const cleanups: (() => void)[] = [];
    setState('rendering');
    void (async () => {
      const pdfjs = await import('pdfjs-dist/build/pdf.mjs');
      const page = await document.getPage(number);
      if (cancelled) return;
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      setHeight(viewport.height);
      element.style.setProperty('--scale-factor', String(viewport.scale));
      element.style.setProperty('--total-scale-factor', String(viewport.scale));

      const ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
      const canvas = window.document.createElement('canvas');
      canvas.className = 'pdf-page-canvas';
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${viewport.width}px`;
      canvas.style.height = `${viewport.height}px`;
      const layer = window.document.createElement('div');
      layer.className = 'textLayer';
      element.replaceChildren(canvas, layer);

      const render = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      const textLayer = new pdfjs.TextLayer({
        textContentSource: page.streamTextContent(),
        container: layer,
        viewport,
      });
      cleanups.push(
        () => render.cancel(),
        () => textLayer.cancel(),
      );
      await Promise.all([render.promise, textLayer.render()]);
      if (!cancelled) setState('ready');
    })().catch((error: unknown) => {
      if (
        cancelled ||
        (error as Error)?.name === 'RenderingCancelledException' ||
        (error as Error)?.name === 'AbortException'
      )
        return;
      setState('failed');
    });
    return () => {
      cancelled = true;
      for (const cleanup of cleanups) cleanup();
    };
  }, [visible, document, number, width]);

  return (
    <div className="pdf-page" data-page={number} data-state={state}>
      <div className="pdf-page-label">
        Page {number}
        {state === 'failed' ? ' · could not be drawn' : ''}
      </div>
      <div ref={frame} className="pdf-page-frame" style={{ width, height }} />
    </div>
  );
}
