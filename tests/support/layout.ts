/**
 * The rules of `src/`'s layout, checked on import lines: folders by layer, each entered
 * only through its `mod.ts` door, no import up a layer, no cycle, one folder on the wire.
 *
 * @module
 */

/**
 * The folders of `src/` and the folders each may import. A folder missing here, or an
 * import of a folder not listed for it, is a violation; listing only lower layers keeps
 * folders free of cycles.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  terminal: [],
  settings: ["core"],
  workspace: ["core"],
  sandbox: ["core", "workspace"],
  editor: ["terminal"],
  model: ["core"],
  session: ["core"],
  tools: ["core", "workspace", "sandbox"],
  context: ["core", "model", "session"],
  config: ["core", "terminal", "model", "context"],
  agent: ["core", "model", "session", "context", "workspace", "tools", "undo"],
  mcp: ["core", "sandbox", "tools", "config"],
  undo: ["core", "session"],
  permissions: ["core", "settings", "workspace", "sandbox", "tools", "undo"],
  setup: ["core", "workspace", "tools"],
  subagents: ["core", "workspace", "tools", "setup"],
  hooks: ["core", "settings", "sandbox", "tools", "agent"],
  ui: ["core", "terminal", "session", "config", "agent"],
  export: ["core", "terminal", "ui"],
  app: [
    "core",
    "settings",
    "terminal",
    "editor",
    "model",
    "session",
    "workspace",
    "sandbox",
    "tools",
    "context",
    "config",
    "agent",
    "ui",
    "mcp",
    "undo",
    "permissions",
    "setup",
    "subagents",
    "hooks",
  ],
  commands: [
    "core",
    "terminal",
    "model",
    "session",
    "context",
    "agent",
    "ui",
    "mcp",
    "undo",
    "permissions",
    "app",
    "setup",
    "export",
  ],
  modes: [
    "core",
    "settings",
    "terminal",
    "editor",
    "model",
    "session",
    "workspace",
    "sandbox",
    "tools",
    "context",
    "config",
    "agent",
    "ui",
    "undo",
    "permissions",
    "app",
    "commands",
    "setup",
    "export",
  ],
};

/** The only folder that may import the `openai` package. */
export const WIRE_FOLDER = "model";

/** One module: its path from the repository root and the specifiers it imports. */
export interface ModuleImports {
  path: string;
  imports: string[];
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w$*\s{},]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The specifiers of every static and dynamic import and re-export in `source`. */
export function importSpecifiers(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...withoutComments.matchAll(SPECIFIER)].map((match) => match[1] ?? match[2] ?? "");
}

/** Every rule the modules break, one line each; empty when the layout holds. */
export function layoutViolations(modules: readonly ModuleImports[]): string[] {
  const violations: string[] = [];
  const graph = new Map<string, string[]>();
  for (const module of modules) {
    const from = folderOf(module.path);
    if (module.path.startsWith("src/") && from === undefined) {
      violations.push(`${module.path}: a loose file in src/; put it in a folder`);
    }
    if (from !== undefined && !(from in LAYERS)) {
      violations.push(`${module.path}: folder "${from}" is not a known layer`);
    }
    const targets: string[] = [];
    for (const specifier of module.imports) {
      if (/^(npm:)?openai(@[^/]*)?(\/|$)/.test(specifier) && from !== WIRE_FOLDER) {
        violations.push(`${module.path}: imports "${specifier}" outside src/${WIRE_FOLDER}/`);
      }
      if (!specifier.startsWith(".")) continue;
      const target = resolve(module.path, specifier);
      targets.push(target);
      const to = folderOf(target);
      if (to === undefined || to === from) continue;
      if (!target.endsWith(`src/${to}/mod.ts`)) {
        violations.push(`${module.path}: imports "${target}" past the door src/${to}/mod.ts`);
      }
      if (from !== undefined && !(LAYERS[from] ?? []).includes(to)) {
        violations.push(`${module.path}: folder "${from}" may not import folder "${to}"`);
      }
    }
    graph.set(module.path, targets);
  }
  for (const cycle of findCycles(graph)) violations.push(`import cycle: ${cycle.join(" -> ")}`);
  return violations;
}

/** The `src/` folder a path lies in, or undefined outside `src/` or loose in it. */
function folderOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts[0] === "src" && parts.length > 2 ? parts[1] : undefined;
}

function resolve(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
