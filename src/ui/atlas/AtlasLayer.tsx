import { lazy, Suspense } from 'react';
import { ErrorBoundary, useWeft } from '../kit/index.ts';
import './atlas.css';
import { AtlasSync } from './AtlasSync.tsx';

// Loaded when first opened: the first screen is the canvas, and these views are a good part of the bundle.
const AtlasView = lazy(() => import('./AtlasView.tsx').then((module) => ({ default: module.AtlasView })));
const WhyPanel = lazy(() => import('./WhyPanel.tsx').then((module) => ({ default: module.WhyPanel })));

/** The Atlas and Why views over the workspace, plus the live-follow listener (always mounted). */
export function AtlasLayer() {
  const view = useWeft((state) => state.view);
  const open = view === 'atlas' || view === 'why' ? view : null;
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
