// Every tool, in one list: the server loop stays generic.
import type { ToolDef } from './tool.ts';
import retrieval from './tools/retrieval.ts';
import writing from './tools/writing.ts';
import lifecycle from './tools/lifecycle.ts';
import curation from './tools/curation.ts';
import notes from './tools/notes.ts';

export const allTools: ToolDef[] = [...retrieval, ...writing, ...lifecycle, ...curation, ...notes];
