// PLACEHOLDER by the lead (issue 2): the curation work (issue 5) owns this file and fills it with
// memory_record_use, memory_health, memory_rename_scope, memory_scope_disable/enable.
import type { ToolDef } from '../tool.ts';

const tools: ToolDef[] = [];
export default tools;
