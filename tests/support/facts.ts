/**
 * Workspace files that each carry one unique `FACT-<n>` token, and a fake-server handler
 * that reads the file a task names and answers with its fact, for compaction tests.
 *
 * @module
 */
import type { Handler } from "./fake_server.ts";
import { answerSummaries, lastMessage, lastUserText, text, toolCall } from "./scripts.ts";

const SENTENCES = [
  "The build keeps its caches warm between runs, so the second compile is quick.",
  "Every module exports one function and documents the errors it can throw.",
  "Tests run in a fixed order and clean up the temporary directories they create.",
  "The release notes list each change with the issue number that asked for it.",
  "Configuration lives in one file, and every field has a default worth keeping.",
  "Logs rotate daily; the last seven days stay on disk for the on-call engineer.",
  "The parser accepts trailing commas but rejects comments inside string values.",
];

const PROSE = [
  "The committee met on Tuesday afternoon to discuss the proposed changes to the heating system.",
  "Several members expressed concern about the cost of replacing the old boiler in the basement.",
  "Others argued that the savings on fuel would pay for the new equipment within a decade.",
  "The current system has become unreliable during the coldest weeks of the winter months.",
  "After a long discussion, the committee agreed to request detailed quotes from three contractors.",
  "Residents will have the opportunity to ask questions before any final decision is made.",
  "The garden behind the library was planted with roses, lavender and a row of young apple trees.",
  "Volunteers water the beds every morning and keep a notebook of what grows well in the shade.",
  "A small bakery on the corner opens at six and sells out of bread long before the lunch hour.",
  "The river rose slowly through the night, but the new wall held and the houses stayed dry.",
  "Children from the school painted the fence in bright colours during the first week of spring.",
];

/** The fact of file `index` (1-based): unique, and not derivable from the file name. */
export function factOf(index: number): string {
  return `FACT-${1000 + index * 37}`;
}

/** The workspace path of fact file `index` (1-based) under `folder`, e.g. `facts/f07.txt`. */
export function factPath(index: number, folder = "facts"): string {
  return `${folder}/f${String(index).padStart(2, "0")}.txt`;
}

/**
 * The text of fact file `index`: about `bytes` bytes of prose with its fact in the middle,
 * so that a summarizer cutting long results to their head and tail would lose it.
 */
export function factFileText(index: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line++) {
    const sentence = SENTENCES[(index + line) % SENTENCES.length] ?? "";
    const next = `Note ${index}.${line + 1}: ${sentence}`;
    lines.push(next);
    size += next.length + 1;
  }
  const middle = Math.floor(lines.length / 2);
  lines[middle] = `The fact to remember from this file is ${factOf(index)}.`;
  return `${lines.join("\n")}\n`;
}

/**
 * Like {@link factFileText}, but ordinary English prose in paragraphs (no numbered notes), the
 * kind of text a byte-count estimate overshoots most: about `bytes` bytes, fact in the middle.
 */
export function factProseText(index: number, bytes: number): string {
  const sentences: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line++) {
    const sentence = PROSE[(index * 5 + line * 3) % PROSE.length] ?? "";
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  sentences[Math.floor(sentences.length / 2)] = `The fact to remember from this file is ${
    factOf(index)
  }.`;
  const paragraphs: string[] = [];
  for (let at = 0; at < sentences.length; at += 5) {
    paragraphs.push(sentences.slice(at, at + 5).join(" "));
  }
  return `${paragraphs.join("\n\n")}\n`;
}

/**
 * Writes `count` fact files into `workspace/folder`, file `i` about `bytes(i)` bytes long.
 * Returns the facts, in file order.
 */
export async function writeFactFiles(
  workspace: string,
  count: number,
  options: {
    folder?: string;
    bytes: (index: number) => number;
    /** The text of file `index`; default {@link factFileText}. */
    text?: (index: number, bytes: number) => string;
  },
): Promise<string[]> {
  const textOf = options.text ?? factFileText;
  const folder = options.folder ?? "facts";
  await Deno.mkdir(`${workspace}/${folder}`, { recursive: true });
  const facts: string[] = [];
  for (let index = 1; index <= count; index++) {
    await Deno.writeTextFile(
      `${workspace}/${factPath(index, folder)}`,
      textOf(index, options.bytes(index)),
    );
    facts.push(factOf(index));
  }
  return facts;
}

/**
 * A handler for tasks like "read facts/f07.txt": it calls read_file on the named path,
 * then, given the tool result, answers "facts/f07.txt says FACT-1259."; summary requests
 * are answered by `summarizeFacts`.
 */
export function readFactsHandler(): Handler {
  return answerSummaries((request) => {
    const last = lastMessage(request);
    const path = /read (\S+)/.exec(lastUserText(request))?.[1];
    if (last?.role === "tool") {
      const fact = /FACT-\d+/.exec(last.content)?.[0] ?? "no fact";
      return text(`${path} says ${fact}.`);
    }
    if (path === undefined) return text("Nothing to read.");
    return toolCall("read_file", { path });
  });
}

/** The message records of every session file under `<projectDir>/.powercode/sessions`. */
export async function sessionMessages(projectDir: string): Promise<unknown[]> {
  const dir = `${projectDir}/.powercode/sessions`;
  const messages: unknown[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const lines = (await Deno.readTextFile(`${dir}/${entry.name}`)).split("\n");
    for (const line of lines) {
      if (line === "") continue;
      const record: unknown = JSON.parse(line);
      if (isRecord(record) && record.type === "message") messages.push(record.message);
    }
  }
  return messages;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
