// Moving memories in and out of the store as a whole: cairn's own export document and its
// import (core/io/exportImport.ts holds the format). The CLI's export/import call these.
import { buildExport, importExport, type ExportDoc, type ImportReport } from '../io/exportImport.ts';
import type { Context } from './context.ts';

export interface ExportInput {
  scopes: string[];
  include_tombstones: boolean;
}

export async function exportStore(c: Context, input: ExportInput): Promise<ExportDoc> {
  await c.store.ensureFresh();
  return buildExport(c.store.active(), c.store.tombstones(), { now: c.now(), scopes: input.scopes, includeTombstones: input.include_tombstones });
}

export async function importStore(c: Context, doc: ExportDoc, progress?: (done: number, total: number) => void): Promise<ImportReport> {
  const report = await importExport(c.store, doc, progress);
  c.log('import', { added: report.added, updated: report.updated, unchanged: report.unchanged, kept_newer: report.kept_newer });
  return report;
}
