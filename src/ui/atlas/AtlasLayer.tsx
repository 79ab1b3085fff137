import { lazy, Suspense, useEffect } from 'react';
import { ErrorBoundary } from '../react/index.ts';
import './atlas.css';
import { AtlasSync } from './AtlasSync.tsx';
import { useAtlas } from './use-atlas.ts';

// Loaded when first opened: the first screen is the canvas, and these views are a good part of the bundle.
const AtlasView = lazy(() => import('./AtlasView.tsx').then((module) => ({ default: module.AtlasView })));
const WhyPanel = lazy(() => import('./WhyPanel.tsx').then((module) => ({ default: module.WhyPanel })));

/** The Atlas and Why views over the workspace, plus the live-follow listener (always mounted). */
export function AtlasLayer() {
  const open = useAtlas((state) => state.open);
  // While the Atlas or Why covers the workspace, the other tabs show as not selected.
  useEffect(() => {
    document.body.classList.toggle('atlas-open', open !== null);
  }, [open]);
  return (
    <>
      <AtlasSync />
      {open && (
        <div className="atlas-layer">
          <ErrorBoundary area={open}>
            <Suspense fallback={null}>{open === 'atlas' ? <AtlasView /> : <WhyPanel />}</Suspense>
          </ErrorBoundary>
        </div>
      )}
    </>
  );
}
