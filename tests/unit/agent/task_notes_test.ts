import { assertEquals } from "@std/assert";
import { failedNote, noteSummary } from "../../../src/agent/task_notes.ts";

const UNREACHABLE = 'Cannot reach the model server at "http://127.0.0.1:9/v1" (connection ' +
  'refused): is the server running, and is "baseURL" in provider.json right?';

Deno.test("failedNote() adds no stop after an error that ends with a question mark", () => {
  assertEquals(
    failedNote(UNREACHABLE),
    `[powercode] The previous task stopped on an error before it finished: ${UNREACHABLE} ` +
      "Do not continue or redo it unless the next message asks for it.",
  );
  assertEquals(
    failedNote("Budget reached"),
    "[powercode] The previous task stopped on an error before it finished: Budget reached. " +
      "Do not continue or redo it unless the next message asks for it.",
  );
});

Deno.test("noteSummary() gives back the error of a failed note without the stop", () => {
  assertEquals(
    noteSummary(failedNote(UNREACHABLE)).text,
    `task stopped on an error: ${UNREACHABLE}`,
  );
  assertEquals(
    noteSummary(failedNote("Budget reached")).text,
    "task stopped on an error: Budget reached",
  );
});
