/**
 * `POST /v2/parse` (compat.md §14; keyless allowed): a multipart upload, part `file` (with a file
 * name and content type, at most 50 MB) and an optional part `options` (scrape options as a JSON
 * string), in either order. The route reads the body itself (so a bad body gets a clear message
 * instead of Elysia's JSON parse error), refuses what a file cannot do (400 PARSE_UNSUPPORTED_OPTIONS,
 * UNSUPPORTED_FILE_TYPE, 413 over the size limit), admits the caller, hands the file to a worker
 * through the blob store (core/jobs/parse.ts) and returns the worker's serialized Document as is.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { DocumentModel, ErrorEnvelope, errorResponses } from '../models/common.ts';
import { PARSE_MAX_BODY_BYTES, PARSE_MAX_FILE_BYTES, ParseBody, cleanFilename, resolveParseOptions } from '../models/parse.ts';
import { uploadParser, uploadUrl, type UploadedFile } from '../../pipeline/parse.ts';
import { PARSE_QUEUE, type ParseJobData } from '../../jobs/parse.ts';
import type { ScrapeJobResult } from '../../jobs/scrape.ts';
import { admit } from '../guard.ts';
import { rawJson } from '../errors.ts';
import { isWaitTimeout } from '../../queue/index.ts';

/** Extra time the API waits beyond the parse timeout for the worker to answer, ms. */
const WAIT_GRACE_MS = 5_000;
/** How long an upload blob outlives the wait at most, ms (a backstop: it is deleted once read). */
const BLOB_MARGIN_MS = 60_000;

const MB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function tooLarge(bytes: number, what: string): TrawlError {
  return new TrawlError(
    'PAYLOAD_TOO_LARGE',
    `The ${what} is ${bytes} bytes; POST /v2/parse takes files of at most ${PARSE_MAX_FILE_BYTES} bytes (${MB(PARSE_MAX_FILE_BYTES)}).`,
  );
}

const HOW = 'Send multipart/form-data with a "file" part (the file, with its file name) and an optional "options" part (the options as a JSON string).';

/**
 * Reads the multipart body: the file and the `options` text.
 * @throws TrawlError PAYLOAD_TOO_LARGE (413), BAD_REQUEST for a body that is not a usable upload
 */
async function readUpload(request: Request): Promise<{ file: UploadedFile; options?: string }> {
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > PARSE_MAX_BODY_BYTES) throw tooLarge(length, 'request body');
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new TrawlError('BAD_REQUEST', `POST /v2/parse takes a file upload, not ${type.split(';')[0] || 'a body without Content-Type'}. ${HOW}`);
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch (e) {
    throw new TrawlError('BAD_REQUEST', `The multipart body could not be read (${(e as Error).message}). ${HOW}`);
  }
  const part = form.get('file');
  if (part === null) throw new TrawlError('BAD_REQUEST', `The request has no "file" part. ${HOW}`);
  if (!(part instanceof Blob)) throw new TrawlError('BAD_REQUEST', `The "file" part must be a file (a part with a file name), not a text field. ${HOW}`);
  if (part.size > PARSE_MAX_FILE_BYTES) throw tooLarge(part.size, 'file');
  if (part.size === 0) throw new TrawlError('BAD_REQUEST', 'The uploaded file is empty.');
  const raw = form.get('options');
  const options = raw === null ? undefined : typeof raw === 'string' ? raw : await raw.text();
  const filename = cleanFilename(part instanceof File ? part.name : '');
  return { file: { bytes: new Uint8Array(await part.arrayBuffer()), filename, contentType: part.type }, options };
}

export function parseRoutes(services: Services) {
  const ParseResponse = Type.Object({ success: Type.Literal(true), data: DocumentModel });

  return new Elysia({ name: 'routes/parse' }).post(
    '/v2/parse',
    async ({ request }) => {
      const upload = await readUpload(request);
      const options = resolveParseOptions(upload.options, services.formats);
      uploadParser(await services.registry.all('parser'), upload.file, options);
      const principal = await admit(services, request, {
        group: 'parse', keyless: true, formats: options.formats, credits: 1, zeroDataRetention: options.zeroDataRetention,
      });
      const scrapeId = newId();
      const url = uploadUrl(upload.file.filename);
      const blob = await services.blobs.put(upload.file.bytes, upload.file.contentType || 'application/octet-stream', options.timeout + WAIT_GRACE_MS + BLOB_MARGIN_MS);
      const data: ParseJobData = {
        scrapeId, url, sourceURL: url, options, teamId: principal.teamId, keyId: principal.keyId,
        file: { blob, filename: upload.file.filename, contentType: upload.file.contentType, size: upload.file.bytes.length },
      };
      let result: ScrapeJobResult;
      try {
        await services.queue.add(PARSE_QUEUE, 'parse', data, { id: scrapeId });
        result = await services.queue.waitFor<ScrapeJobResult>(scrapeId, options.timeout + WAIT_GRACE_MS);
      } catch (error) {
        const e = TrawlError.wrap(error);
        if (!isWaitTimeout(e)) throw e; // a job's own 504 (a model that did not answer) is its answer
        await services.queue.cancel(scrapeId).catch(() => {});
        throw new TrawlError('SCRAPE_TIMEOUT', `Parsing "${upload.file.filename}" timed out after ${options.timeout} ms. Raise "timeout" (max 300000) or retry.`);
      } finally {
        await services.blobs.delete?.(blob).catch(() => {});
      }
      return rawJson(`{"success":true,"data":${result.document}}`);
    },
    {
      // The route reads the multipart body itself (readUpload).
      parse: 'none',
      response: { 200: ParseResponse, ...errorResponses, 413: ErrorEnvelope, 422: ErrorEnvelope },
      detail: {
        summary: 'Parse an uploaded file',
        tags: ['Parse'],
        description:
          'Uploads a file (HTML, PDF, DOCX, XLSX, CSV, text, JSON; images with "parsers": ["image"]) as multipart/form-data and returns it as a Document. ' +
          'Options are a subset of the scrape options; actions, screenshot, waitFor, location, mobile and non-basic proxies are refused.',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: ParseBody as any } } },
      },
    },
  );
}
