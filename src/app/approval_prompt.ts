/**
 * Asks the user on the terminal, before the REPL starts, whether to use a project's
 * `.mcp.json`: its exact content, what its servers could do, and a yes/no question.
 *
 * @module
 */
import type { ProjectReview } from "../mcp/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";

/**
 * Shows `review` through `write` and reads the answer from stdin (still in line mode).
 * Contract: only `y` or `yes` (any case) approves; EOF declines; every text shown (the
 * project's path included: a directory name can hold escape sequences) is sanitized.
 */
export async function approveOnTerminal(
  review: ProjectReview,
  write: (text: string) => void,
): Promise<boolean> {
  const names = review.servers.map((server) => sanitizeLine(server.name)).join(", ");
  const lines = review.text.replace(/\n$/, "").split("\n").map((line) =>
    `  │ ${sanitizeLine(line)}`
  );
  write(
    [
      `${sanitizeLine(review.file)} asks powercode to start MCP servers (${names}):`,
      ...lines,
      ...programLines(review.programs),
      "Their programs run in the sandbox, like bash: the workspace writable, no network unless",
      '"network": true. The agent can write this file: approve only content you have read.',
      "Use this exact content now and in later sessions? [y/N] ",
    ].join("\n"),
  );
  const answer = (await readLine()).trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

/** The program files in the project the approval covers, one line each. */
function programLines(programs: readonly string[]): string[] {
  if (programs.length === 0) return [];
  return [
    "It runs these files of the project; the approval covers their current content too:",
    ...programs.map((path) => `  ${sanitizeLine(path)}`),
  ];
}

/** One line from stdin; what came after it in the same read is dropped. */
export async function readLine(): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(1024);
  let text = "";
  while (!text.includes("\n")) {
    const read = await Deno.stdin.read(buffer);
    if (read === null) break;
    text += decoder.decode(buffer.subarray(0, read), { stream: true });
  }
  return text.split("\n")[0] ?? "";
}
