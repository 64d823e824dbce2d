import { assertEquals, assertThrows } from "@std/assert";
import { ConfigError } from "../../../src/config/provider_config.ts";
import { withPipedInput } from "../../../src/modes/piped_input.ts";

Deno.test("withPipedInput() delimits the piped text after the task, or leaves the task alone", () => {
  const settings = { contextWindow: 32_000 };
  assertEquals(
    withPipedInput("sum it up", "a\nb\n", settings),
    "sum it up\n\n<stdin>\na\nb\n</stdin>",
  );
  assertEquals(withPipedInput("sum it up", " \n", settings), "sum it up");
});

Deno.test("withPipedInput() refuses text over half of what fits the window", () => {
  const error = assertThrows(
    () => withPipedInput("t", "word ".repeat(20_000), { contextWindow: 8000 }),
    ConfigError,
  );
  assertEquals(error.message.startsWith("Cannot send the piped input: it is about "), true);
});
