/**
 * The one-shot mode (`-p`): one task, the final answer on stdout, SIGINT stops it.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** Runs a single task for `-p`; returns 0 when it finished, 1 otherwise. */
export async function runPrint(
  agent: Agent,
  task: string,
  options: { renderer: Renderer; printAnswer: (answer: string) => void },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    result = await agent.run(task, controller.signal);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  if (result.status !== "done") return 1;
  options.printAnswer(result.answer);
  return 0;
}
