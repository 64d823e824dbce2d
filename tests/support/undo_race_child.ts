/**
 * The race of tests/e2e/undo_hostile_test.ts, run in a child (as root or as nobody): restores
 * 100 files back and forth while another process (a loop of renames) swaps their directory
 * for a link to a directory outside the root, again and again. Prints what appeared outside
 * and how many restores were started. Imports the copy of src/ beside it (the checkout may
 * be unreadable for nobody).
 */
type SnapshotsModule = typeof import("../../src/undo/snapshots.ts");

const FILES = 100;
const ROUNDS = 16;
const DEADLINE_MS = 6000;

const { Snapshots }: SnapshotsModule = await import(
  new URL("./src/undo/snapshots.ts", import.meta.url).href
);
const work = Deno.args[0]!;
const ws = `${work}/ws`;
const outside = `${work}/outside`;
Deno.mkdirSync(`${ws}/sub`, { recursive: true });
Deno.mkdirSync(outside);
const write = (text: string) => {
  for (let i = 0; i < FILES; i++) Deno.writeTextFileSync(`${ws}/sub/f${i}`, `${text} ${i}\n`);
};
const snapshots = new Snapshots({ dir: `${work}/state`, roots: [ws] });
write("chosen by the attacker");
const one = await snapshots.take();
write("two");
const two = await snapshots.take();
Deno.symlinkSync(outside, `${ws}/link`);
const swap = (from: string, to: string) =>
  `try { Deno.renameSync("${ws}/${from}", "${ws}/${to}"); } catch {}`;
const swapper = new Deno.Command(Deno.execPath(), {
  args: [
    "eval",
    `for (;;) { ${swap("sub", "real")} ${swap("link", "sub")} ${swap("sub", "link")} ${
      swap("real", "sub")
    } }`,
  ],
  stdout: "null",
  stderr: "null",
}).spawn();
let moves = 0;
const deadline = Date.now() + DEADLINE_MS;
for (let round = 0; round < ROUNDS && Date.now() < deadline; round++) {
  moves++;
  try {
    await snapshots.move(round % 2 === 0 ? two : one, round % 2 === 0 ? one : two, {
      force: true,
    });
  } catch {
    // refused: the directory was a link when the restore reached it
  }
}
swapper.kill("SIGKILL");
await swapper.status;
const names = [...Deno.readDirSync(outside)].map((entry) => entry.name).sort();
console.log(JSON.stringify({ outside: names, moves }));
