// The importers by format name (`cairn import --from FORMAT`): each reads its source into
// candidates (common.ts) and never writes; core/ops/transfer.ts gates and writes them.
import { ValidationError } from '../../errors.ts';
import { parseAnthropicMemories } from './anthropicMemories.ts';
import { parseBasicMemory } from './basicMemory.ts';
import { parseBettermemory } from './bettermemory.ts';
import { parseClaudeCode } from './claudeCode.ts';
import { IMPORT_FORMATS, type ImportFormat, type ParseOptions, type ParsedImport } from './common.ts';
import { parseMem0 } from './mem0.ts';
import { parseMemento } from './memento.ts';
import { parseServerMemory } from './serverMemory.ts';

export { IMPORT_FORMATS, type ImportCandidate, type ImportFormat, type ParsedImport } from './common.ts';

const PARSERS: Record<ImportFormat, (path: string, opts: ParseOptions) => ParsedImport | Promise<ParsedImport>> = {
  'claude-code': parseClaudeCode,
  'server-memory': parseServerMemory,
  'basic-memory': parseBasicMemory,
  memento: parseMemento,
  bettermemory: parseBettermemory,
  mem0: parseMem0,
  'anthropic-memories': parseAnthropicMemories,
};

export function checkFormat(v: string): ImportFormat {
  if ((IMPORT_FORMATS as readonly string[]).includes(v)) return v as ImportFormat;
  throw new ValidationError(`unknown import format ${JSON.stringify(v)}: use one of ${IMPORT_FORMATS.join(', ')}`);
}

/** Reads a source into candidates; a malformed source throws (file and line named), nothing is written. */
export async function parseSource(format: ImportFormat, path: string, opts: ParseOptions = {}): Promise<ParsedImport> {
  if (opts.includeClaudeMd && format !== 'claude-code') throw new ValidationError('--include-claude-md applies to --from claude-code only');
  return PARSERS[format](path, opts);
}
