/**
 * v1 `POST /import` (multipart field `file`, Netscape HTML) and `GET /export?format=html`; `format=json` (an
 * `ops serve` extension) answers the whole export document in one request (actions/export-document.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { EXPORT_FORMATS } from '../../validate.js';
import { HttpError, ValidationError } from '../../errors.js';
import { exportBookmarks, importBookmarks } from '../../actions/import-export.js';
import { exportDocument } from '../../actions/export-document.js';
import { requireUser } from '../../actions/links.js';
import { callerOf } from '../common.js';
import { doc, enumOf } from '../schemas.js';
import { declareRoute } from '../../../kit/route.js';
import { objectOf, withDefault } from '../../../kit/declare.js';
import { choice, queryFlag, normalizeQuery, rule } from '../../fields.js';

const importQuery = objectOf({ dry_run: queryFlag('run the import and roll it back (an ops serve extension)') }, { normalize: normalizeQuery });
const exportQuery = objectOf({ format: withDefault(rule(enumOf(EXPORT_FORMATS), choice(EXPORT_FORMATS)), 'html') }, { normalize: normalizeQuery });

const FILE_REQUIRED = () => new ValidationError({ file: ['The file field is required (multipart/form-data, field "file", a Netscape bookmark HTML file).'] });

const NOT_BOOKMARKS = () => new ValidationError({ file: ['The file must be a Netscape bookmark file (HTML with a <DL> list).'] });

/** A file with no bookmarks is fine when it is an (empty) bookmark file; anything else is refused. */
function looksLikeBookmarkFile(data: Buffer): boolean {
  // latin1 without NULs reads the ASCII markup of UTF-8, windows-1252 and UTF-16 files alike.
  const text = data.toString('latin1').replace(/\0/g, '');
  return /NETSCAPE-Bookmark-file|<\s*dl[\s>]/i.test(text);
}

export function v1ImportExportRoutes(app: FastifyInstance, deps: Deps): void {
  declareRoute(app, {
    method: 'POST',
    url: '/api/v1/import',
    doc: doc('v1', 'Import a Netscape bookmark HTML file (folders become tags; existing URLs are skipped); dry_run=1 reports the same counts and changes nothing', {
      consumes: ['multipart/form-data'],
      body: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
      ok: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          imported: { type: 'integer' },
          skipped: { type: 'integer' },
          existing: { type: 'integer' },
          duplicates: { type: 'integer' },
          invalid: { type: 'integer' },
          tags_created: { type: 'integer' },
          lists_created: { type: 'integer' },
          dry_run: { type: 'boolean' },
        },
      },
    }),
    query: importQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      requireUser(caller);
      if (!req.isMultipart()) throw FILE_REQUIRED();
      let data: Buffer | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file' && (part.fieldname === 'file' || part.fieldname === 'import-file') && data === undefined) data = await part.toBuffer();
          else if (part.type === 'file') await part.toBuffer();
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, { message: 'The bookmark file is too large.' });
        throw FILE_REQUIRED();
      }
      if (!data || data.length === 0) throw FILE_REQUIRED();
      const result = await importBookmarks(deps, caller, data, { dryRun: input.query.dry_run });
      if (result.total === 0 && !looksLikeBookmarkFile(data)) throw NOT_BOOKMARKS();
      return result;
    },
  });

  declareRoute(app, {
    method: 'GET',
    url: '/api/v1/export',
    doc: doc('v1', 'Export the links visible to the caller: a Netscape bookmark HTML file, or (format=json) the ops-bookmarks document with tags and lists', {
      produces: ['text/html', 'application/json'],
      ok: { type: 'string', description: 'Netscape bookmark HTML, or the ops-bookmarks JSON document' },
    }),
    query: exportQuery,
    handler: async (req, reply, input) => {
      const caller = callerOf(req);
      if (input.query.format === 'json') return exportDocument(deps, caller);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', 'attachment; filename="bookmarks.html"')
        .serializer((s: unknown) => s as string)
        .send(exportBookmarks(deps, caller));
    },
  });
}
