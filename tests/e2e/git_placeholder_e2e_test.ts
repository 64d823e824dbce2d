/**
 * Issue 36.6: the empty read-only `.git` that stands in the root of a workspace without one
 * while a command runs is gone after powercode is killed with SIGKILL during the command.
 */
import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { isAlive, powercodePid, waitUntil } from "../support/processes.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, provider } from "../support/sessions.ts";
import { skipWithout } from "../support/programs.ts";

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "a powercode killed with SIGKILL during a bash command leaves no .git in the workspace",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const command = "touch started; sleep 30";
    await using server = await startFakeServer({
      handler: sequence([toolCall("bash", { command }), text("Done.")]),
    });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    const child = project.spawn(["-p", "run it"], { env: ENV });
    await child.stdin.close();
    const output = child.output();
    try {
      await waitUntil(() => exists(`${project.workspace}/started`), "the command to start");
      assertEquals(exists(`${project.workspace}/.git`), true, "the placeholder while it runs");
      const pid = await powercodePid(child.pid);
      Deno.kill(pid, "SIGKILL");
      await waitUntil(async () => !await isAlive(pid), "powercode to die");
      await waitUntil(() => !exists(`${project.workspace}/.git`), "the placeholder to go", {
        timeoutMs: 5000,
      });
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // ended already
      }
      await output;
    }
  },
});
