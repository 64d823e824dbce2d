/**
 * The REPL's answers to the questions asked before a tool call: the question is printed
 * above the input, and the next line typed answers it (instead of being queued).
 *
 * @module
 */
import type { Answer, Asker, PreviewReport, Question } from "../permissions/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** Lines of a preview's diff shown per file. */
const SHOWN_DIFF = 20;

/**
 * Asks on the terminal while a task runs.
 * Contract: a line typed while a question waits answers it and is not queued; Ctrl+C
 * (the task's abort) rejects the question, and the call does not run.
 */
export class TerminalQuestions implements Asker {
  #renderer: Renderer;
  #pending: ((line: string) => void) | undefined;
  #onAsk: () => void;

  /** Questions printed through `renderer`; `onAsk` runs as each starts to wait (notifications). */
  constructor(renderer: Renderer, onAsk: () => void = () => {}) {
    this.#renderer = renderer;
    this.#onAsk = onAsk;
  }

  /** Gives `line` to the waiting question; false when none waits. */
  answer(line: string): boolean {
    const pending = this.#pending;
    if (!pending) return false;
    this.#pending = undefined;
    pending(line);
    return true;
  }

  async ask(question: Question, signal: AbortSignal): Promise<Answer> {
    const r = this.#renderer;
    const rules = question.rules.join(", ");
    const choices = [
      "y yes",
      `a always (saves ${question.saves ?? `allow ${rules}`})`,
      ...(question.projectFile ? ["ap always, in the project's settings"] : []),
      ...(question.canPreview ? ["p preview: run it, then keep or revert"] : []),
      "n [reason] no",
    ];
    const yellow = (text: string) => r.yellow(text);
    const dim = (text: string) => r.dim(text);
    r.styled(`? ${question.tool} asks to run: ${sanitizeLine(question.subject)}`, yellow);
    r.styled(`  ${sanitizeLine(question.why)}`, dim);
    if (question.needs !== undefined) {
      r.styled(`  and for this command only: ${sanitizeLine(question.needs)}`, yellow);
    }
    r.styled(`  ${choices.join(" · ")}`, dim);
    this.#onAsk();
    for (;;) {
      const line = (await this.#next(signal)).trim();
      const [word = "", ...rest] = line.split(/\s+/);
      const lower = word.toLowerCase();
      if (lower === "y" || lower === "yes") return { kind: "yes" };
      if (lower === "a" || lower === "always") return { kind: "always", where: "user" };
      if (lower === "ap" && question.projectFile) return { kind: "always", where: "project" };
      if ((lower === "p" || lower === "preview") && question.canPreview) return { kind: "preview" };
      if (lower === "n" || lower === "no") return { kind: "no", reason: rest.join(" ") };
      r.styled(`  answer ${choices.map((choice) => choice.split(" ")[0]).join(", ")}`, dim);
    }
  }

  async review(report: PreviewReport, signal: AbortSignal): Promise<"keep" | "revert"> {
    const r = this.#renderer;
    const yellow = (text: string) => r.yellow(text);
    const dim = (text: string) => r.dim(text);
    r.styled(`? the preview of ${sanitizeLine(report.command)} ended: ${report.end}`, yellow);
    if (report.changes.length === 0) r.line(dim("  no file changed"));
    for (const change of report.changes) {
      r.styled(`  ${change.kind} ${sanitizeLine(change.path)}`, (text) => text, "    ");
      // A diff line is code: cut with "…" rather than broken between words.
      for (const line of change.diff.slice(0, SHOWN_DIFF)) {
        r.line(dim(r.fit(`    ${sanitizeLine(line)}`)));
      }
    }
    r.styled(
      report.hosts.length === 0
        ? "  hosts tried: none"
        : `  hosts tried (refused): ${report.hosts.map(sanitizeLine).join(", ")}`,
      dim,
    );
    r.line(dim("  k keep · r revert"));
    this.#onAsk();
    for (;;) {
      const word = (await this.#next(signal)).trim().toLowerCase();
      if (word === "k" || word === "keep") return "keep";
      if (word === "r" || word === "revert") return "revert";
      r.line(dim("  answer k or r"));
    }
  }

  #next(signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#pending = undefined;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending = (line) => {
        signal.removeEventListener("abort", onAbort);
        resolve(line);
      };
    });
  }
}
