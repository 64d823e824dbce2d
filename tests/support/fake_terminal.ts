/**
 * A fake terminal for the line editor: keys go in as bytes through an async queue,
 * output lands on a {@link VirtualScreen} and in a log of each write.
 *
 * @module
 */
import type { TerminalIo } from "../../src/terminal/terminal.ts";
import { VirtualScreen } from "./screen.ts";

const encoder = new TextEncoder();

/** Key names as bytes, for readable tests. */
export const KEYS = {
  enter: "\r",
  altEnter: "\x1b\r",
  ctrlJ: "\n",
  tab: "\t",
  backspace: "\x7f",
  delete: "\x1b[3~",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  ctrlA: "\x01",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlE: "\x05",
  ctrlK: "\x0b",
  ctrlU: "\x15",
  ctrlW: "\x17",
  paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
};

/** A terminal whose input the test types and whose screen it reads. */
export interface FakeTerminal {
  io: TerminalIo;
  screen: VirtualScreen;
  /** Everything written, one entry per write. */
  writes: string[];
  /** Sends bytes as one chunk and waits until the editor has handled them. */
  type(text: string): Promise<void>;
  /** Ends the input (like closing the terminal). */
  end(): void;
  /** The screen rows, trailing spaces and empty rows removed. */
  lines(): string[];
}

/** A fake terminal `width` columns wide and `height` rows high. */
export function fakeTerminal(width = 40, height = 10): FakeTerminal {
  const screen = new VirtualScreen(width, height);
  const writes: string[] = [];
  const chunks: Uint8Array[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const input: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const chunk = chunks.shift();
        if (chunk) yield chunk;
        else if (ended) return;
        else await new Promise<void>((resolve) => wake = resolve);
      }
    },
  };
  return {
    io: {
      input,
      write: (text) => {
        writes.push(text);
        screen.write(text);
      },
      columns: () => screen.width,
    },
    screen,
    writes,
    async type(text) {
      chunks.push(encoder.encode(text));
      wake?.();
      await settle();
    },
    end() {
      ended = true;
      wake?.();
    },
    lines: () => screen.lines(),
  };
}

/** Lets queued promise callbacks and zero-delay timers run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
