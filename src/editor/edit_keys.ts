/**
 * The editing keys of the prompt (moving, deleting, newlines) applied to an
 * {@link EditBuffer}: Emacs-style control keys, arrows, Home/End, word moves.
 *
 * @module
 */
import type { EditBuffer } from "./edit_buffer.ts";

const ACTIONS: Record<string, (buffer: EditBuffer) => void> = {
  "alt+enter": (b) => b.insert("\n"),
  "shift+enter": (b) => b.insert("\n"),
  "ctrl+j": (b) => b.insert("\n"),
  "backspace": (b) => b.backspace(),
  "ctrl+h": (b) => b.backspace(),
  "delete": (b) => b.deleteForward(),
  "left": (b) => b.move(-1),
  "ctrl+b": (b) => b.move(-1),
  "right": (b) => b.move(1),
  "ctrl+f": (b) => b.move(1),
  "ctrl+left": (b) => b.moveWord(-1),
  "alt+left": (b) => b.moveWord(-1),
  "alt+b": (b) => b.moveWord(-1),
  "ctrl+right": (b) => b.moveWord(1),
  "alt+right": (b) => b.moveWord(1),
  "alt+f": (b) => b.moveWord(1),
  "home": (b) => b.moveLine("start"),
  "ctrl+a": (b) => b.moveLine("start"),
  "end": (b) => b.moveLine("end"),
  "ctrl+e": (b) => b.moveLine("end"),
  "ctrl+u": (b) => b.kill("before"),
  "ctrl+k": (b) => b.kill("after"),
  "ctrl+w": (b) => b.killWord(),
  "alt+backspace": (b) => b.killWord(),
  "ctrl+y": (b) => b.yank(),
};

/**
 * Applies the editing key `name` (e.g. `"ctrl+w"`) to `buffer`; returns false for a key
 * that is not an editing key.
 */
export function applyEditKey(buffer: EditBuffer, name: string): boolean {
  const action = ACTIONS[name];
  if (!action) return false;
  action(buffer);
  return true;
}
