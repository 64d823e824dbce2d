/**
 * The file lists the real file tools declare, for session tests that check them.
 *
 * @module
 */
import type { PathsOf } from "../../src/session/mod.ts";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createReadFileTool } from "../../src/tools/read_file.ts";
import { ToolSet } from "../../src/tools/tool_set.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";

const workspace = await Workspace.open(new URL(".", import.meta.url).pathname);
const toolSet = new ToolSet([
  createReadFileTool(workspace),
  createWriteFileTool(workspace),
  createEditFileTool(workspace),
]);

/** The paths a call of read_file, write_file or edit_file reads or modifies. */
export const pathsOf: PathsOf = (call) => toolSet.pathsOf(call);
