// What adapters (the MCP tool, the library entry) may know of the notes room: plain types and
// constants, no machinery (server/test/architecture/imports.test.ts).
export type { MemoryCommand } from './commands.ts';
export { MEMORY_COMMANDS } from './commands.ts';
export { MemoryToolError } from './errors.ts';
