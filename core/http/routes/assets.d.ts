/** Types for the Swagger UI files embedded by routes/docs.ts (file paths, `/$bunfs/...` in the binary). */
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string;
  export default path;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string;
  export default path;
}
