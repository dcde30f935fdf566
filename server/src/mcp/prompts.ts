// MCP prompts: protocol-side wording, like the tool descriptions. memory_guide is what a client
// shows as "how to keep notes with cairn": the /memories conventions and worked examples.
// memory_scope and memory_review bring stored memories into the conversation as embedded
// resources; their arguments complete from the store (completions.ts).
import type { CompletionKind } from '../core/cairn.ts';

export interface PromptArg {
  name: string;
  description: string;
  required: boolean;
  /** What the argument names, so completion/complete offers values from the store. */
  complete?: CompletionKind;
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  /** The prompt's fixed text; or, for a prompt with arguments, its lead-in before the embedded resource. */
  text: string;
  arguments?: PromptArg[];
  /** With arguments: the cairn:// URI whose text is embedded after `text`. */
  embeds?: (args: Record<string, string>) => string;
}

const GUIDE = `# Keeping notes in /memories (cairn)

The \`memory\` tool is a directory of files under /memories: view, create, str_replace, insert,
delete, rename. It lives in the cairn store beside the memories of memory_write, in one index:
memory_search finds notes too (a hit with kind "note" carries its /memories path).

## Protocol
1. At the start of a task, view /memories (and the folder of the current project).
2. Record progress, decisions and what you learned as you go: your context may be reset at any
   moment, and only what is in memory survives.
3. Keep notes current and few: update with str_replace, merge near-duplicates, rename or delete
   what is obsolete (delete is recoverable: memory_list_tombstones, memory_restore).
4. Never write secrets (keys, tokens, passwords): the write is refused. Say where a secret lives.

## Folders (a note's folder is its scope)
- /memories/user/        the user: preferences, communication style, environment   -> scope user
- /memories/projects/<name>/  one project's state, decisions, conventions           -> scope projects:<name>
- /memories/sessions/    working notes of one conversation or task                  -> scope sessions
- /memories/patterns/    lessons and patterns that hold across projects             -> scope patterns
memory_search scopes=["projects:widgets"] then finds the widgets notes; auto-scope rules apply.

## Structure that search and the graph understand
- Observation:  \`- [category] one fact #tag #other\`   (memory_search category="decision", tags=["db"])
- Relation:     \`- relation_type [[Target Title]]\`     (memory_related follows it both ways)
- Wikilink:     \`[[Target]]\` anywhere in prose         (relation links_to)
A target is a note's title (frontmatter \`title:\` or its first \`# heading\`), its file name
without extension, or its path inside /memories. Link by title: it survives renames. A link to a
note that does not exist yet is fine: memory_related lists it as unresolved, memory_health as
dangling, until you create it.

## Worked example: a project note
create /memories/projects/widgets/architecture.md with:

    # Widgets architecture

    ## Observations
    - [decision] Postgres 16 for storage; SQLite only in tests #db
    - [convention] API handlers live in src/api/<resource>.ts #layout
    - [gotcha] migrations must be idempotent: CI reruns them #db #ci

    ## Relations
    - depends_on [[Billing service]]
    - documented_in [[Widgets runbook]]

Later, when the decision changes:
str_replace old_str "Postgres 16 for storage" new_str "Postgres 17 for storage (upgraded in March)".

## Worked example: the user
create /memories/user/preferences.md with:

    # User preferences
    - [communication] Prefers short answers, no preamble #style
    - [tooling] Uses pnpm, never npm, in every repo #tools
    - relates_to [[Widgets architecture]]

## Finding things again
- memory_search query="database migrations" tags=["db"]   notes and memories together
- memory_related path="/memories/projects/widgets/architecture.md" depth=2
- memory_show id=<id>   full text plus backlinks (who links here)
`;

export const PROMPTS: PromptDef[] = [
  {
    name: 'memory_guide',
    title: 'How to keep notes in /memories',
    description: 'Conventions for the memory tool in cairn: the protocol, folder layout (user/, projects/, sessions/, patterns/), observations, relations and wikilinks, with worked examples',
    text: GUIDE,
  },
  {
    name: 'memory_scope',
    title: 'Bring one scope\'s memories into the conversation',
    description: 'The memories of one scope (nested scopes included), as context for what follows',
    text: 'These are the memories cairn holds in this scope. Use them as context for what follows; say so when one shapes an answer, and spot-check a claim before relying on it (memory_verify when it still holds, memory_update when it changed).',
    arguments: [{ name: 'scope', description: 'A scope, e.g. projects:widgets (nested scopes are included)', required: true, complete: 'scope' }],
    embeds: (a) => `cairn://scope/${encodeURIComponent(a.scope ?? '').replace(/%3A/gi, ':')}`,
  },
  {
    name: 'memory_review',
    title: 'Review one memory',
    description: 'Check one stored memory against the current state of things and verify, correct or remove it',
    text: 'Review this stored memory against the current state of the repository and what the user says. If it still holds, call memory_verify (say what you checked); if it changed, memory_update with the corrected text; if it is wrong or obsolete, ask the user, then memory_remove with a reason.',
    arguments: [{ name: 'id', description: 'The memory id (a 26-character ULID)', required: true, complete: 'id' }],
    embeds: (a) => `cairn://memory/${encodeURIComponent(a.id ?? '')}`,
  },
];
