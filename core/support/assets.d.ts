/** Markdown documentation embedded as text by core/support/docs-corpus.ts (Bun text imports). */
declare module '*.md' {
  const text: string;
  export default text;
}
