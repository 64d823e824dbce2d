/**
 * The run's permissions: the approval mode, the rules from the settings files and the
 * answers saved this run, the one policy every tool call passes, and the questions it asks.
 *
 * @module
 */
import type { PermissionEvent } from "../core/mod.ts";
import type { PermissionRules, Sourced } from "../settings/mod.ts";
import {
  BASH_TOOL,
  type CallGrant,
  type PolicyVerdict,
  type RunTool,
  type ToolOutput,
  type ToolPolicy,
  type ToolRequest,
  USER_COMMAND_ID,
} from "../tools/mod.ts";
import { type ApprovalMode, nextApprovalMode } from "./approval_mode.ts";
import type { CommandReader, Decision } from "./decide.ts";
import type { DirCheck, Needs } from "./needs.ts";
import type { PreviewSnapshots } from "./preview.ts";
import type { Asker, Question } from "./question.ts";
import { parseRule, type Rule, type RuleList } from "./rule.ts";
import { type HostGrants, urlHost } from "./host_grants.ts";

/** Saves `rule` to the allow list of settings file `file`. */
export type RuleSaver = (file: string, rule: string) => Promise<void>;

/** What the permissions work with. */
export interface PermissionsOptions {
  mode: ApprovalMode;
  /** The rules of the settings files, each with its file. */
  rules: PermissionRules;
  /** The hosts commands may reach (`network.allow`), for `/permissions`. */
  domains?: readonly Sourced<string>[];
  /** The user's settings file, where "always" saves; the project's, when it may. */
  files: { user: string; project?: string };
  save: RuleSaver;
  /** Receives each question and its answer (the session, stream-json). */
  emit: (event: PermissionEvent) => void;
  /** Snapshots for a preview; without them (undo off) preview is not offered. */
  snapshots?: PreviewSnapshots;
  /** Whether commands run in bubblewrap (a preview needs the sandbox's walls). */
  sandboxed: boolean;
  /** How a command line is read (default: the shell parser). */
  reader?: CommandReader;
  /** Resolves a directory a command asks to write (`need_dirs`); without it, all refused. */
  checkDir?: DirCheck;
  /** The hosts fetch may reach; with an asker, a host not on them is asked about. */
  hosts?: HostGrants;
  /** Saves a host to `network.allow` of a settings file (default: into its JSON). */
  saveHost?: (file: string, host: string) => Promise<void>;
}

/** What a call asking for more than the sandbox gives adds to its question. */
interface MoreAsked {
  /** The needs no rule covers, in words. */
  line: string;
  /** The rules "always" saves for them. */
  rules: string[];
  /** Whether the command itself asks (a rule or the mode), besides its needs. */
  commandAsks: boolean;
  /** What the call gets when the user says yes. */
  grant: CallGrant;
}

/**
 * The approval mode, the rules, and the policy that applies them.
 * Contract: without an asker (print mode, piped input, a script) nothing ever waits: a call
 * that would ask is refused with the reason, and the model reads it.
 */
export class Permissions {
  #mode: ApprovalMode;
  #rules: Rule[];
  #options: PermissionsOptions;
  #asker: Asker | undefined;

  /**
   * Permissions as `options` say.
   * Contract: throws a SyntaxError naming the rule and its file when one is malformed.
   */
  constructor(options: PermissionsOptions) {
    this.#options = options;
    this.#mode = options.mode;
    const lists: RuleList[] = ["deny", "ask", "allow"];
    this.#rules = lists.flatMap((list) =>
      options.rules[list].map(({ value, source }) => parseRule(value, list, source))
    );
  }

  /** The approval mode now. */
  get mode(): ApprovalMode {
    return this.#mode;
  }

  /** Sets the approval mode; the next call is decided under it. */
  set mode(mode: ApprovalMode) {
    this.#mode = mode;
  }

  /** Moves to the next mode (Shift+Tab); returns it. */
  cycle(): ApprovalMode {
    this.#mode = nextApprovalMode(this.#mode);
    return this.#mode;
  }

  /** The rules in force, deny first, each with its file. */
  get rules(): readonly Rule[] {
    return this.#rules;
  }

  /** The hosts commands may reach, each with its file. */
  get domains(): readonly Sourced<string>[] {
    return this.#options.domains ?? [];
  }

  /** Lets the front end answer questions; undefined again when it cannot. */
  setAsker(asker: Asker | undefined): void {
    this.#asker = asker;
  }

  /** The policy of the tool set. */
  readonly policy: ToolPolicy = async (request) => {
    const target = request.effect === "net" ? urlHost(request.args) : undefined;
    const { hosts } = this.#options;
    if (!target || !hosts || !this.#asker || hosts.allows(target.host)) {
      return await this.#decide(request);
    }
    const [{ askForHost }, { saveAllowedHost }] = await Promise.all([
      import("./host_question.ts"),
      import("./settings_file.ts"),
    ]);
    const granted = await askForHost({
      tool: request.name,
      ...target,
      signal: request.signal ?? new AbortController().signal,
    }, {
      asker: this.#asker,
      hosts,
      file: this.#options.files.user,
      save: this.#options.saveHost ?? saveAllowedHost,
      record: (question, answer, detail) =>
        this.#options.emit({
          type: "permission",
          callId: request.id ?? "",
          tool: request.name,
          subject: target.url,
          question,
          answer,
          ...(detail !== undefined ? { detail } : {}),
        }),
    });
    if (granted.kind === "refuse") return granted;
    const verdict = await this.#decide(request);
    return verdict.kind === "refuse" ? verdict : granted;
  };

  async #decide(request: ToolRequest): Promise<PolicyVerdict> {
    if (request.id === USER_COMMAND_ID) return ALLOW;
    // The policy's parts load at the first tool call: a run without one never needs them.
    const [{ decide }, { asksForMore }] = await Promise.all([
      import("./decide.ts"),
      import("./needs.ts"),
    ]);
    const decision = await decide(request, this.#mode, this.#rules, this.#reader);
    if (decision.kind !== "deny" && request.name === BASH_TOOL && asksForMore(request.args)) {
      return await this.#needs(request, decision);
    }
    switch (decision.kind) {
      case "allow":
        return ALLOW;
      case "deny":
        return { kind: "refuse", reason: `${decision.why}; do not try to work around the rule` };
      case "ask":
        return await this.#ask(request, decision.why);
      default: {
        const never: never = decision;
        return never;
      }
    }
  }

  /** A bash call with `need_hosts` or `need_dirs`: granted by rules, asked, or refused. */
  async #needs(request: ToolRequest, decision: Decision): Promise<PolicyVerdict> {
    const { describeNeeds, judgeNeeds, needRules, readNeeds } = await import("./needs.ts");
    const noDirs: DirCheck = () => Promise.resolve({ problem: "commands run without bubblewrap" });
    const needs = await readNeeds(request.args, this.#options.checkDir ?? noDirs);
    if (typeof needs === "string") return { kind: "refuse", reason: needs };
    const domains = this.domains.map(({ value }) => value);
    const judged = judgeNeeds(needs, this.#rules, domains);
    if ("deny" in judged) {
      const { deny, what } = judged;
      return {
        kind: "refuse",
        reason: `the rule "deny: ${deny.text}" (${deny.source}) refuses "${what}"; do not try ` +
          "to work around the rule",
      };
    }
    const grant = grantOf(needs);
    // Without bubblewrap a command has the whole network already: only directories remain.
    const uncovered = this.#options.sandboxed
      ? judged.uncovered
      : { hosts: [], dirs: judged.uncovered.dirs };
    const more = uncovered.hosts.length + uncovered.dirs.length > 0;
    if (decision.kind === "allow" && !more) return { kind: "allow", around: (run) => run(grant) };
    const line = describeNeeds(uncovered);
    const why = decision.kind === "ask"
      ? decision.why
      : "the command asks for more than the sandbox gives";
    return await this.#ask(request, why, {
      line,
      rules: needRules(uncovered),
      commandAsks: decision.kind === "ask",
      grant,
    });
  }

  get #reader(): CommandReader {
    return this.#options.reader ?? readShellCommand;
  }

  async #ask(request: ToolRequest, why: string, more?: MoreAsked): Promise<PolicyVerdict> {
    const [{ commandOf }, { suggestRules }] = await Promise.all([
      import("./decide.ts"),
      import("./generalize.ts"),
    ]);
    const asker = this.#asker;
    const bash = request.name === BASH_TOOL;
    const subject = bash ? commandOf(request.args) : describeWrite(request);
    const read = bash && (more?.commandAsks ?? true) ? await this.#reader(subject) : undefined;
    const question: Question = {
      tool: request.name,
      subject,
      why,
      rules: [
        ...(more?.commandAsks ?? true ? suggestRules(request, read) : []),
        ...more?.rules ?? [],
      ],
      ...(more && more.line !== "" ? { needs: more.line } : {}),
      canPreview: bash && this.#options.snapshots !== undefined && this.#options.sandboxed,
      projectFile: this.#options.files.project !== undefined,
    };
    const callId = request.id ?? "";
    const asked = more && more.line !== "" ? ` (it asks for ${more.line})` : "";
    const record = (answer: string, detail?: string) =>
      this.#options.emit({
        type: "permission",
        callId,
        tool: request.name,
        subject,
        question: `${why}${asked}`,
        answer,
        ...(detail !== undefined ? { detail } : {}),
      });
    if (!asker) {
      record("refused: nobody can answer in this run");
      const ahead = more?.commandAsks !== false
        ? "--approval auto"
        : (more.grant.hosts ?? []).length > 0
        ? "--allow-domain HOST"
        : "shell.writable";
      return {
        kind: "refuse",
        reason: `${why}${asked}, and nobody can answer in this run (-p, piped input or a ` +
          "script never waits); the user can allow it ahead with a rule in settings.json " +
          `(e.g. "allow": [${question.rules.map((rule) => `"${rule}"`).join(", ")}]) or ${ahead}`,
      };
    }
    const { answerText } = await import("./question.ts");
    const run = (tool: RunTool) => tool(more?.grant);
    const answer = await asker.ask(question, request.signal ?? new AbortController().signal);
    switch (answer.kind) {
      case "yes":
        record(answerText(answer));
        return { kind: "allow", around: run };
      case "always": {
        const saved = await this.#remember(question.rules, answer.where);
        record(answerText(answer), saved);
        return { kind: "allow", around: run };
      }
      case "no":
        record(answerText(answer));
        return {
          kind: "refuse",
          reason: answer.reason === "" ? "the user said no" : `the user said no: ${answer.reason}`,
        };
      case "preview":
        record(answerText(answer));
        return {
          kind: "allow",
          around: (tool) => this.#preview(tool, question, request, more?.grant),
        };
      default: {
        const never: never = answer;
        return never;
      }
    }
  }

  async #preview(
    run: RunTool,
    question: Question,
    request: ToolRequest,
    grant: CallGrant | undefined,
  ): Promise<ToolOutput> {
    const { snapshots } = this.#options;
    const asker = this.#asker;
    if (!snapshots || !asker) throw new Error("Cannot preview: undo snapshots are off in this run");
    const { previewRun } = await import("./preview.ts");
    const tried = new Set<string>();
    // The granted hosts go through the proxy as they would after a yes, and are refused.
    const offline: CallGrant = {
      ...(grant?.hosts ? { hosts: grant.hosts } : {}),
      offline: true,
      onConnection: ({ host, port }) => tried.add(`${host}:${port}`),
    };
    return await previewRun(() => run(offline), {
      snapshots,
      asker,
      command: question.subject,
      signal: request.signal ?? new AbortController().signal,
      hosts: () => [...tried],
      record: (verdict, report) =>
        this.#options.emit({
          type: "permission",
          callId: request.id ?? "",
          tool: request.name,
          subject: question.subject,
          question:
            `keep or revert what the preview did (${report.changes.length} files, ${report.end})`,
          answer: verdict,
          detail: report.changes.map((change) => `${change.kind} ${change.path}`).join(", "),
        }),
    });
  }

  /** Adds `rules` to the allow list now and saves them; returns what was saved where. */
  async #remember(rules: readonly string[], where: "user" | "project"): Promise<string> {
    const file = where === "project" && this.#options.files.project
      ? this.#options.files.project
      : this.#options.files.user;
    const lines: string[] = [];
    for (const text of rules) {
      let source = file;
      try {
        await this.#options.save(file, text);
      } catch (error) {
        source = "this run";
        lines.push(`not saved (${error instanceof Error ? error.message : String(error)})`);
      }
      this.#rules.push(parseRule(text, "allow", source));
      lines.push(`allow ${text} → ${source}`);
    }
    return lines.join("; ");
  }
}

const ALLOW: PolicyVerdict = { kind: "allow" };

/** The default command reader: the shell parser's, loaded with it at the first command. */
const readShellCommand: CommandReader = async (line) =>
  (await import("./shell_commands.ts")).readCommand(line);

/** What a call gets for `needs`: the hosts through the proxy, the directories bound. */
function grantOf(needs: Needs): CallGrant {
  return {
    ...(needs.hosts.length > 0 ? { hosts: needs.hosts } : {}),
    ...(needs.dirs.length > 0 ? { dirs: needs.dirs } : {}),
  };
}

function describeWrite(request: ToolRequest): string {
  const paths = request.paths.modified ?? [];
  return paths.length > 0 ? paths.join(", ") : request.name;
}
