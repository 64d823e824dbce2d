import { assertEquals } from "@std/assert";
import { promptKeyHolds } from "../../../src/config/launch_entry.ts";

Deno.test("promptKeyHolds() holds only where each argument the key leaves out is the prompt", () => {
  const cases: [string[], boolean][] = [
    [["-p", "fix it"], true],
    [["--print", "fix it", "--dir", "x"], true],
    [["--scope"], true],
    [["-p", " "], false], // does not parse: an empty prompt
    [["-p", "a", "-p", "b"], false], // the first is not the prompt
    [["-p", "-x"], false], // does not parse; and "-x" is keyed as it is
  ];
  for (const [args, holds] of cases) assertEquals(promptKeyHolds(args), holds, args.join(" "));
});
