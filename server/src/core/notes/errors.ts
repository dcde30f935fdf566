// The memory tool's one error kind: its message is the text the model sees (after "Error: ",
// which Anthropic's SDK tool runner puts before a handler's thrown message, and the MCP tool too).
import { CairnError } from '../errors.ts';

export class MemoryToolError extends CairnError {
  override name = 'MemoryToolError' as const;
}
