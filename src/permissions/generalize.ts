/**
 * The rule an "always" answer saves: the call generalized to what the user most likely
 * means, shown before it is saved (`git status` → `bash(git status *)`).
 *
 * @module
 */
import { BASH_TOOL, type ToolRequest } from "../tools/mod.ts";
import { commandOf } from "./decide.ts";
import type { ReadCommand } from "./shell_commands.ts";

const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/;
/** Programs whose first word is a subcommand, kept in the rule (`npm install *`). */
const WITH_SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "cargo",
  "go",
  "deno",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "docker",
  "podman",
  "kubectl",
  "make",
  "gh",
  "apt",
  "apt-get",
  "brew",
  "rustup",
  "dotnet",
  "mvn",
  "gradle",
  "bundle",
  "rake",
  "composer",
  "npx",
  "node",
  "python",
  "python3",
]);
const MOVES = new Set(["cd", "pushd", "popd"]);

/**
 * The rules that would let `request` run without asking: one `bash(program sub *)` per
 * simple command (its program, and the subcommand of a program known to have them: git,
 * npm, cargo, …), `edit(path)` per
 * file written, or the tool's name.
 */
export function suggestRules(request: ToolRequest, read: ReadCommand | undefined): string[] {
  if (request.name === BASH_TOOL) {
    if (read?.kind !== "read") return [`bash(${commandOf(request.args).trim()})`];
    const rules = read.commands.flatMap(({ words, wrapper }) => {
      const [program = "", second] = words;
      if (wrapper || MOVES.has(program)) return [];
      const sub = second !== undefined && WITH_SUBCOMMANDS.has(program) && SUBCOMMAND.test(second);
      const head = sub ? `${program} ${second}` : program;
      return [`bash(${head} *)`];
    });
    return [...new Set(rules)];
  }
  if (request.effect === "write" && (request.paths.modified ?? []).length > 0) {
    return (request.paths.modified ?? []).map((path) => `edit(${path.replace(/^\.\//, "")})`);
  }
  return [request.name];
}
