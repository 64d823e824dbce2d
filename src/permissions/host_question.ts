/**
 * The question before a fetch of a host not on `network.allow`, in a run that can ask: yes
 * (this call only), always (saved to `network.allow` of the user's settings file and allowed
 * for the rest of the run) or no.
 *
 * @module
 */
import type { PolicyVerdict } from "../tools/mod.ts";
import type { HostGrants } from "./host_grants.ts";
import { answerText, type Asker, type Question } from "./question.ts";

/** What the question works with. */
export interface HostAsking {
  asker: Asker;
  hosts: HostGrants;
  /** The user's settings file, where "always" saves the host. */
  file: string;
  save: (file: string, host: string) => Promise<void>;
  /** Records the question's answer (the session, stream-json), with what was saved. */
  record: (question: string, answer: string, detail?: string) => void;
}

/**
 * Asks whether `tool` may reach `host` for `url`; the verdict of the answer.
 * Contract: rejects when `signal` aborts, as `Asker.ask` does; a host that cannot be saved is
 * allowed for the run, and the record says why it was not saved.
 */
export async function askForHost(
  call: { tool: string; url: string; host: string; signal: AbortSignal },
  asking: HostAsking,
): Promise<PolicyVerdict> {
  const { host } = call;
  const why = `host "${host}" is not on network.allow`;
  const question: Question = {
    tool: call.tool,
    subject: call.url,
    why,
    rules: [],
    saves: `${host} to network.allow in ${asking.file}`,
    canPreview: false,
    projectFile: false,
  };
  const answer = await asking.asker.ask(question, call.signal);
  switch (answer.kind) {
    case "yes":
      asking.record(why, answerText(answer));
      return { kind: "allow", around: (run) => asking.hosts.once(host, run) };
    case "always": {
      let saved = `network.allow ${host} → ${asking.file}`;
      try {
        await asking.save(asking.file, host);
      } catch (error) {
        saved = `not saved (${error instanceof Error ? error.message : String(error)}); ` +
          `network.allow ${host} → this run`;
      }
      asking.hosts.add(host);
      asking.record(why, answerText({ kind: "always", where: "user" }), saved);
      return { kind: "allow" };
    }
    case "no":
    case "preview":
      asking.record(why, answerText(answer));
      return {
        kind: "refuse",
        reason: answer.kind === "no" && answer.reason !== ""
          ? `the user said no to host "${host}": ${answer.reason}`
          : `the user said no to host "${host}"`,
      };
    default: {
      const never: never = answer;
      return never;
    }
  }
}
