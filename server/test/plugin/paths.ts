// Where the plugin surface lives, relative to this test directory, and small readers shared by
// the plugin tests. Kept here (not in test/helpers) because only these tests need them.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BUNDLE = join(ROOT, 'server', 'dist', 'cairn.mjs');
export const COMMANDS_DIR = join(ROOT, 'commands');
export const SKILL_FILE = join(ROOT, 'skills', 'memory', 'SKILL.md');

/** The prefix Claude Code gives tools of server `cairn` in plugin `cairn`. */
export const TOOL_PREFIX = 'mcp__plugin_cairn_cairn__';

export function readJson(rel: string): Record<string, unknown> {
  const file = join(ROOT, rel);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${rel} is not valid JSON: ${(err as Error).message}`);
  }
}

export interface MarkdownDoc {
  file: string;
  data: Record<string, unknown>;
  body: string;
}

/** Parses a markdown file's YAML frontmatter; a file without one gets empty data. */
export function readMarkdown(file: string): MarkdownDoc {
  // Passing options makes gray-matter skip its by-content cache, so every file is parsed afresh.
  const parsed = matter(readFileSync(file, 'utf8'), {});
  return { file, data: parsed.data as Record<string, unknown>, body: parsed.content };
}

export function commandFiles(): string[] {
  return readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(COMMANDS_DIR, f));
}

/** allowed-tools may be a comma-separated string or a YAML list (both valid in Claude Code). */
export function allowedTools(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((s) => s.trim());
  throw new Error(`allowed-tools must be a string or a list of strings, got ${JSON.stringify(value)}`);
}

/**
 * Every memory_* tool name a text mentions (in prose or code), deduplicated and sorted. A
 * double-quoted name is a JSON argument key (`"memory_ids"`), not a tool.
 */
export function mentionedTools(text: string): string[] {
  return [...new Set(text.match(/(?<!")\bmemory_[a-z_]*[a-z]\b(?!")/g) ?? [])].sort();
}
