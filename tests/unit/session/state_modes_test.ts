/**
 * powercode's state is private to its user: sessions and input history are 0600 files in
 * 0700 directories, also when the directory was made readable before (issue 35, item 7).
 */
import { assertEquals } from "@std/assert";
import { SessionStore } from "../../../src/session/store.ts";
import { historyFile } from "../../../src/editor/input_history.ts";

const modeOf = (path: string) => (Deno.statSync(path).mode ?? 0) & 0o777;

Deno.test("SessionStore.create() makes a private session file in a private directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sessions = `${dir}/sessions`;
    await Deno.mkdir(sessions, { mode: 0o755 });
    await Deno.chmod(sessions, 0o755);
    using file = new SessionStore(sessions).create({ model: "m" });
    assertEquals([modeOf(sessions), modeOf(file.path)], [0o700, 0o600]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("historyFile() writes the input history private to the user, also when it rewrites it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/history`;
    const history = historyFile(path, 1);
    await history.append("one");
    assertEquals(modeOf(path), 0o600);
    await history.append("two");
    await history.append("three");
    assertEquals([modeOf(path), await history.load()], [0o600, ["three"]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
