// Words shared by the CLI's write commands (remember, update, confirm, ...): how a write's
// outcome reads at a terminal, and the core's argument names in the CLI's own words.
import { UsageError, type CliIO } from './io.ts';

/** Core argument names (MCP) -> the CLI's options, for error messages. */
export const WRITE_WORDS: Record<string, string> = {
  content: 'TEXT',
  scopes: '--scope',
  confidence: '--confidence',
  expires: '--expires',
  aliases: '--alias',
  force: '--force',
  acknowledge_transient: '--acknowledge-transient',
  note: '--note',
  reason: '--reason',
  id: 'ID',
  pending_id: 'PENDING_ID',
  old_scope: 'OLD',
  new_scope: 'NEW',
  include_tombstones: '--include-tombstones',
};

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** TEXT from the positionals ("-" alone reads stdin); a usage error when there is none. */
export async function readText(positionals: string[], io: CliIO, example: string): Promise<string> {
  if (positionals.length === 1 && positionals[0] === '-') {
    if (!io.readStdin) throw new UsageError('TEXT "-" reads stdin, which is not available here');
    return (await io.readStdin()).trim();
  }
  const text = positionals.join(' ').trim();
  if (text === '') throw new UsageError(`give the text to store: ${example}`);
  return text;
}

type Rec = Record<string, unknown>;
const oneLine = (s: unknown) => String(s ?? '').replace(/\s+/g, ' ').trim();

export function committedLine(verb: string, r: Rec): string {
  const related = (r.related as Rec[] | undefined) ?? [];
  const rel = related.map((m) => `  related: ${String(m.id)} (similarity ${String(m.similarity)}) ${oneLine(m.snippet)}\n`).join('');
  return `${verb} ${String(r.id)}  [${(r.scopes as string[]).join(', ')}]${r.store === 'team' ? `  in the team store ${String(r.file).replace(/[\\/][^\\/]*$/, '')}` : ''}\n${rel}`;
}

/** A pending write: what it holds, why it waits, and (withHowTo) how to settle it later. */
export function pendingText(r: Rec, withHowTo: boolean): string {
  const preview = (r.preview as Rec | undefined) ?? {};
  const why = r.pending_reason === 'user-inference' ? 'a claim about you' : 'this store confirms every write (behavior.require_write_confirmation)';
  const lines = [
    `pending ${String(r.pending_id)}: ${why}; not stored until you confirm (expires ${String(r.expires_at)})`,
    `  [${((preview.scopes as string[] | undefined) ?? []).join(', ')}] ${String(preview.content ?? '')}`,
  ];
  if (withHowTo) lines.push(`confirm: cairn confirm ${String(r.pending_id)}    discard: cairn cancel ${String(r.pending_id)}`);
  return `${lines.join('\n')}\n`;
}

/** Why a write stored nothing, and what the user can do about it with this CLI. */
export function refusalText(r: Rec): string {
  const matches = (r.matches as Rec[] | undefined) ?? [];
  const first = matches[0];
  switch (r.status) {
    case 'secret_detected': {
      const kinds = [...new Set(((r.findings as Rec[] | undefined) ?? []).map((f) => String(f.kind)))];
      if (r.store === 'team') return `not stored in the team store: the text may hold a secret (${kinds.join(', ')}). The team store is committed and shared with everyone who has the repository, so it refuses private hosts with credential words, an email with a password and random-looking tokens too: say where the secret lives instead. There is no override.\n`;
      return `not stored: the text looks like it holds a secret (${kinds.join(', ')}). Memories are plaintext files: say where the secret lives instead ("the deploy key is in 1Password under Infra"). There is no override.\n`;
    }
    case 'transient_warning': {
      const markers = ((r.markers as Rec[] | undefined) ?? []).map((m) => JSON.stringify(String(m.marker)));
      return `not stored: it reads as the state of the moment (${markers.join(', ')}) and will mislead once that changes. Reword it as a durable fact, or pass --acknowledge-transient to store it as written.\n`;
    }
    case 'duplicate':
      return `not stored: memory ${String(first?.id)}${first?.store ? ` (${String(first.store)} store)` : ''} already says this (similarity ${String(first?.similarity)}): ${oneLine(first?.snippet)}\n` +
        `Change it with cairn update ${String(first?.id)} --text "...", mark it still true with cairn verify ${String(first?.id)}, or pass --force if this is a different fact.\n`;
    case 'previously_removed':
      return `not stored: a near-identical memory${first?.store ? ` in the ${String(first.store)} store` : ''} was removed on ${String(first?.removed_at ?? '').slice(0, 10)} (reason: ${JSON.stringify(String(first?.removed_reason ?? ''))}): ${String(first?.id)} ${oneLine(first?.snippet)}\n` +
        `cairn restore ${String(first?.id)} brings it back; --force stores it anew.\n`;
    default:
      return `not stored: ${String(r.status)}${r.hint ? ` (${String(r.hint)})` : ''}\n`;
  }
}
