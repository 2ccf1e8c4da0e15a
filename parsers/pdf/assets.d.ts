/**
 * Types of the non-JS files the parsers embed with `import path from '...' with { type: 'file' }`:
 * the import's value is a path (a real path under `bun run`, `/$bunfs/root/...` in a compiled binary).
 */
declare module '*.wasm' {
  const path: string;
  export default path;
}
declare module '*.gz' {
  const path: string;
  export default path;
}
declare module 'tesseract.js-core/tesseract-core-simd-lstm.wasm' {
  const path: string;
  export default path;
}
