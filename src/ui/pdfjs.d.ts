// pdf.js ships types for its package root; the browser build path we import is the same module.
declare module 'pdfjs-dist/build/pdf.mjs' {
  export * from 'pdfjs-dist';
}
