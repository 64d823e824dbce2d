/**
 * The simple commands a bash command line runs, read with a real shell parser: through
 * pipes, `&&`, `||`, `;`, subshells, `$(…)`, functions and leading `VAR=value`, so that a rule
 * meets every program, however the line is put together.
 *
 * @module
 */
import { loadShellParser, type ShNode, type ShSyntax } from "./shell_parser.ts";

/** One simple command: its words, unquoted where they are literal, as written where not. */
export interface SimpleCommand {
  words: string[];
  /**
   * Runs another command through a wrapper (`env X=1 curl …`, `nohup`, `timeout 5`): allow
   * rules judge the command inside (listed on its own), deny and ask rules both.
   */
  wrapper: boolean;
}

/** What the parser read: every simple command, or why the line cannot be read. */
export type ReadCommand =
  | { kind: "read"; commands: SimpleCommand[] }
  | { kind: "unreadable"; reason: string };

/** Programs that run their arguments as a command line of their own. */
const SHELLS = new Set("bash sh dash zsh".split(" "));
/** Programs that run the command after their own words. */
const WRAPPERS = new Set([
  "env",
  "command",
  "builtin",
  "exec",
  "nohup",
  "nice",
  "timeout",
  "xargs",
]);
/** Wrapper words that take a value: `nice -n 5`, `timeout -s KILL`, `env -u NAME`. */
const WRAPPER_VALUES = new Set(["-n", "-s", "-k", "-u", "-C", "-S", "-I", "-L", "-P", "-d"]);

/**
 * The simple commands of `line`, in the order they appear.
 * Contract: never throws; a line that does not parse, `eval`, a command named by an
 * expansion, and a shell whose script is not a literal (`bash -c "$x"`, a here-document
 * piped into a shell) are unreadable, with the reason.
 */
export async function readCommand(line: string): Promise<ReadCommand> {
  const syntax = await loadShellParser();
  return readWith(syntax, line, 0);
}

function readWith(syntax: ShSyntax, line: string, depth: number): ReadCommand {
  let file: ShNode;
  try {
    file = syntax.NewParser().Parse(line, "");
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { kind: "unreadable", reason: `the shell parser cannot read it (${text})` };
  }
  const commands: SimpleCommand[] = [];
  let problem: string | undefined;
  syntax.Walk(file, (node) => {
    if (problem !== undefined || !node || syntax.NodeType(node) !== "CallExpr") return true;
    const args = (node.Args ?? []) as ShNode[];
    if (args.length === 0) return true;
    const words = args.map((word) => wordText(syntax, word, line));
    const read = simple(syntax, words, depth);
    if (read.kind === "unreadable") problem = read.reason;
    else commands.push(...read.commands);
    return true;
  });
  return problem === undefined
    ? { kind: "read", commands }
    : { kind: "unreadable", reason: problem };
}

/** A word's value when literal, else its text as written (with `literal` false). */
interface WordText {
  text: string;
  literal: boolean;
}

function simple(syntax: ShSyntax, words: WordText[], depth: number): ReadCommand {
  const [name, ...rest] = words;
  if (!name?.literal) return { kind: "unreadable", reason: "the program's name is an expansion" };
  const plain = words.map((word) => word.text);
  if (name.text === "eval") return { kind: "unreadable", reason: "eval runs text it builds" };
  if (SHELLS.has(name.text)) return shell(syntax, plain, rest, depth);
  if (!WRAPPERS.has(name.text)) {
    return { kind: "read", commands: [{ words: plain, wrapper: false }] };
  }
  const inner = unwrap(name.text, rest);
  if (inner.length === 0) return { kind: "read", commands: [{ words: plain, wrapper: false }] };
  const read = simple(syntax, inner, depth);
  if (read.kind === "unreadable") return read;
  return { kind: "read", commands: [{ words: plain, wrapper: true }, ...read.commands] };
}

/** `bash -c 'script'` is read as its script; a script from stdin or an expansion is not. */
function shell(syntax: ShSyntax, plain: string[], rest: WordText[], depth: number): ReadCommand {
  const own: SimpleCommand = { words: plain, wrapper: true };
  const dashC = rest.findIndex((word) => /^-[a-z]*c[a-z]*$/.test(word.text));
  if (dashC >= 0) {
    const script = rest[dashC + 1];
    if (!script?.literal || depth > 4) {
      return { kind: "unreadable", reason: `${plain[0]} -c runs a script that is not literal` };
    }
    const read = readWith(syntax, script.text, depth + 1);
    return read.kind === "read" ? { kind: "read", commands: [own, ...read.commands] } : read;
  }
  const file = rest.find((word) => !word.text.startsWith("-"));
  if (!file) return { kind: "unreadable", reason: `${plain[0]} reads its script from stdin` };
  return { kind: "read", commands: [{ words: plain, wrapper: false }] };
}

/** The command a wrapper runs: its words after the wrapper's options (and `VAR=value`). */
function unwrap(wrapper: string, rest: WordText[]): WordText[] {
  let index = 0;
  while (index < rest.length) {
    const word = rest[index]?.text ?? "";
    if (word === "--") return rest.slice(index + 1);
    if (WRAPPER_VALUES.has(word)) index += 2;
    else if (word.startsWith("-") || (wrapper === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word))) {
      index++;
    } else if (wrapper === "timeout" && /^[0-9.]+[smhd]?$/.test(word)) index++;
    else break;
  }
  return rest.slice(index);
}

function wordText(syntax: ShSyntax, word: ShNode, line: string): WordText {
  const parts = (word.Parts ?? []) as ShNode[];
  let text = "";
  for (const part of parts) {
    const value = literalPart(syntax, part);
    if (value === undefined) {
      return { text: line.slice(word.Pos().Offset(), word.End().Offset()), literal: false };
    }
    text += value;
  }
  return { text, literal: true };
}

function literalPart(syntax: ShSyntax, part: ShNode): string | undefined {
  switch (syntax.NodeType(part)) {
    case "Lit":
      return String(part.Value).replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
    case "SglQuoted":
      return part.Dollar ? undefined : String(part.Value);
    case "DblQuoted": {
      let text = "";
      for (const inner of (part.Parts ?? []) as ShNode[]) {
        if (syntax.NodeType(inner) !== "Lit") return undefined;
        text += String(inner.Value).replace(/\\([$`"\\\n])/g, "$1");
      }
      return text;
    }
    default:
      return undefined;
  }
}
