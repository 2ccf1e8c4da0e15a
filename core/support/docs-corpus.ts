/**
 * The corpus of docs-search (issue 21): Trawl's own documentation, embedded in the binary as text
 * imports (README.md and every page under docs/), cut into sections by heading; tables (the
 * configuration table, the error-code table) are also cut into one passage per row so a question
 * about one variable or one code finds that row. OpenAPI passages are added by the caller
 * (core/http builds them from the generated document; see `openApiSections`).
 */
import readme from '../../README.md' with { type: 'text' };
import errors from '../../docs/errors.md' with { type: 'text' };
import scaling from '../../docs/scaling.md' with { type: 'text' };
import support from '../../docs/support.md' with { type: 'text' };
import models from '../../docs/models.md' with { type: 'text' };
import plugins from '../../docs/plugins.md' with { type: 'text' };
import runningOnAVm from '../../docs/running-on-a-vm.md' with { type: 'text' };

/** One searchable passage. `pathOrUrl`: `README.md#configuration`, `docs/errors.md#unsafe_target` … */
export interface DocSection {
  id: string;
  pathOrUrl: string;
  title: string;
  text: string;
}

/** The embedded pages, by repository path. */
export const EMBEDDED_DOCS: Readonly<Record<string, string>> = {
  'README.md': readme,
  'docs/errors.md': errors,
  'docs/scaling.md': scaling,
  'docs/support.md': support,
  'docs/models.md': models,
  'docs/plugins.md': plugins,
  'docs/running-on-a-vm.md': runningOnAVm,
};

/** GitHub-style heading anchor: lower case, punctuation dropped, spaces to dashes. */
export function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[`*_()[\]{}.,:;!?'"/\\|<>=+~]/g, '').trim().replace(/\s+/g, '-');
}

/**
 * Cuts one markdown page into sections (one per `#`..`####` heading, text up to the next heading)
 * and, for each table row, a passage of its own titled by the section and the row's first cell.
 */
export function sectionsOf(path: string, markdown: string): DocSection[] {
  const out: DocSection[] = [];
  let title = path;
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) {
      const pathOrUrl = title === path ? path : `${path}#${anchor(title)}`;
      out.push({ id: `${pathOrUrl}@${out.length}`, pathOrUrl, title, text });
      for (const row of lines.filter((l) => /^\|/.test(l) && !/^\|[\s|:-]+\|\s*$/.test(l))) {
        const first = row.split('|')[1]?.trim() ?? '';
        if (!first || /^(code|variable)$/i.test(first)) continue;
        out.push({ id: `${pathOrUrl}@${out.length}`, pathOrUrl, title: `${title}: ${first.replace(/`/g, '')}`, text: row });
      }
    }
    lines = [];
  };
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,4}\s+(.+)$/.exec(line);
    if (heading) {
      flush();
      title = heading[1]!.trim();
    } else lines.push(line);
  }
  flush();
  return out;
}

/** Every embedded page, sectioned. */
export function embeddedSections(): DocSection[] {
  return Object.entries(EMBEDDED_DOCS).flatMap(([path, text]) => sectionsOf(path, text));
}

/** The parts of an OpenAPI document docs-search reads (paths → method → operation). */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, { summary?: string; description?: string; tags?: string[]; parameters?: { name?: string; description?: string }[] }>>;
}

/**
 * One passage per documented operation of an OpenAPI document (summary, description, tags,
 * parameter descriptions); `pathOrUrl` is `/docs/json#<METHOD> <path>`.
 */
export function openApiSections(doc: OpenApiDocument): DocSection[] {
  const out: DocSection[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops ?? {})) {
      if (!op || typeof op !== 'object' || !(op.summary || op.description)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const params = (op.parameters ?? []).map((p) => `${p.name ?? ''}: ${p.description ?? ''}`).join('\n');
      const text = [op.summary, op.description, op.tags?.join(', '), params].filter(Boolean).join('\n');
      out.push({ id: `openapi:${name}`, pathOrUrl: `/docs/json#${name}`, title: name, text });
    }
  }
  return out;
}
