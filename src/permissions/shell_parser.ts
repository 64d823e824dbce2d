/**
 * Loads the shell parser, mvdan/sh (the parser behind shfmt) as the `mvdan-sh` npm package,
 * once and only when it is first needed (when rules exist).
 *
 * `mvdan-sh` is the Go parser compiled to plain JavaScript: no WebAssembly file to read, so
 * it needs no read permission beyond the run's, under `deno run` and in the compiled binary.
 * Its Go runtime reads the whole environment and `argv` when it starts (Go's `os.Environ`),
 * which a scoped `--allow-env` refuses: while it loads it sees a `process` without them.
 *
 * @module
 */

/** The part of mvdan/sh's API powercode uses (Go names, as GopherJS exports them). */
export interface ShSyntax {
  NewParser(): { Parse(source: string, name: string): ShNode };
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  NodeType(node: ShNode): string;
}

/** A node of mvdan/sh's syntax tree; fields are read where their type is known. */
export interface ShNode {
  Pos(): { Offset(): number };
  End(): { Offset(): number };
  [field: string]: unknown;
}

let loading: Promise<ShSyntax> | undefined;

/** The parser, loaded on the first call; later calls share it. */
export function loadShellParser(): Promise<ShSyntax> {
  loading ??= load();
  return loading;
}

async function load(): Promise<ShSyntax> {
  const global = globalThis as { process?: unknown };
  const saved = Object.getOwnPropertyDescriptor(globalThis, "process");
  const limit = Error.stackTraceLimit;
  const real = global.process;
  // A view of `process` without the environment and argv, for the Go runtime's start only.
  const quiet = real === undefined ? undefined : new Proxy(real as object, {
    get: (target, key) =>
      key === "env" ? {} : key === "argv" ? ["powercode"] : Reflect.get(target, key, target),
  });
  Object.defineProperty(globalThis, "process", {
    value: quiet,
    configurable: true,
    writable: true,
  });
  try {
    const module = await import("mvdan-sh");
    return (module.default as { syntax: ShSyntax }).syntax;
  } finally {
    if (saved) Object.defineProperty(globalThis, "process", saved);
    else delete global.process;
    // GopherJS sets it to Infinity when it starts.
    Error.stackTraceLimit = limit;
  }
}
