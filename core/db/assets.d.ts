/**
 * Types for the non-JS files core/db embeds: SQL migrations (as text) and the PGlite runtime assets
 * (as file paths, `/$bunfs/...` inside a compiled binary).
 */
declare module '*.sql' {
  const text: string;
  export default text;
}
declare module '@electric-sql/pglite/pglite.wasm' {
  const path: string;
  export default path;
}
declare module '@electric-sql/pglite/initdb.wasm' {
  const path: string;
  export default path;
}
declare module '@electric-sql/pglite/pglite.data' {
  const path: string;
  export default path;
}
