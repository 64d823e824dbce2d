import { assertEquals } from "@std/assert";
import { waitUntil } from "../support/processes.ts";
import { createSandboxProject, isRoot, type SandboxProject } from "../support/sandbox_project.ts";

const AS_ROOT = await isRoot();

/** Connects to the Unix socket given as argument and says so (perl is in every Debian base). */
const CONNECT = "perl -MIO::Socket::UNIX -e '" +
  'my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\\n"; ' +
  'print $s "hello\\n"; print "CONNECTED\\n"\' ../agent.sock';
const REFUSED = { output: "connect: Operation not permitted\n", code: 1 };
/**
 * Makes a datagram socketpair (no socket() call needed) and sends from one end to the
 * datagram socket `../dgram.sock` outside the workspace, like journald's or systemd's.
 */
const SEND_DATAGRAM = "perl -MSocket -e '" +
  'socketpair(my $a, my $b, AF_UNIX, SOCK_DGRAM, 0) or die "socketpair: $!\\n"; ' +
  'send($a, "hello", 0, pack_sockaddr_un("../dgram.sock")) or die "send: $!\\n"; ' +
  'print "SENT\\n"\'';
/** Outside the sandbox: binds `dgram.sock`, open to every user, and prints what arrives. */
const RECEIVE_DATAGRAMS = "use Socket; $| = 1; socket(my $s, AF_UNIX, SOCK_DGRAM, 0) or die; " +
  'bind($s, pack_sockaddr_un("dgram.sock")) or die "bind: $!"; chmod 0777, "dgram.sock"; ' +
  'print "READY\\n"; while (defined(recv($s, my $m, 100, 0))) { print "RECEIVED $m\\n" }';
/** Lists the shell's open descriptors and reads descriptor 7 if one was inherited. */
const FDS = "ls /proc/$$/fd; cat /proc/self/fd/7";
const ONLY_STDIO = {
  output: "0\n1\n2\ncat: /proc/self/fd/7: No such file or directory\n",
  code: 1,
};

/**
 * Listens on `agent.sock` next to the workspace (like a D-Bus or ssh-agent
 * socket outside it), open to every user, runs `attack`, and says whether
 * anything connected.
 */
async function withListener(
  project: SandboxProject,
  attack: () => Promise<unknown>,
): Promise<boolean> {
  const path = `${project.dir}/agent.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  await Deno.chmod(path, 0o777);
  const accepted = listener.accept().then((conn) => {
    conn.close();
    return true;
  }, () => false);
  try {
    await attack();
  } finally {
    listener.close();
  }
  return await accepted;
}

Deno.test("Sandbox.run() cannot connect to a Unix socket outside the workspace", async () => {
  await using project = await createSandboxProject();
  let outcome;
  const connected = await withListener(project, async () => {
    outcome = await project.run(CONNECT);
  });
  assertEquals(outcome, REFUSED);
  assertEquals(connected, false);
});

Deno.test("Sandbox.run() refuses Unix sockets in the workspace too, keeps socketpair", async () => {
  await using project = await createSandboxProject();
  const listen = 'perl -MIO::Socket::UNIX -e \'IO::Socket::UNIX->new(Local => "x.sock", ' +
    'Listen => 1) or die "listen: $!\\n"\'; ' +
    "perl -MSocket -e 'socketpair(my $a, my $b, AF_UNIX, SOCK_STREAM, 0) " +
    'or die "socketpair: $!\\n"; print "socketpair works\\n"\'';
  assertEquals(await project.run(listen), {
    output: "listen: Operation not permitted\nsocketpair works\n",
    code: 0,
  });
  assertEquals(await Deno.stat(`${project.root}/x.sock`).catch(() => "absent"), "absent");
});

/**
 * Runs `attack` while a datagram socket `dgram.sock` next to the workspace listens, and
 * returns what reached it.
 */
async function withDatagramListener(
  project: SandboxProject,
  attack: () => Promise<unknown>,
): Promise<string> {
  const receiver = new Deno.Command("perl", {
    args: ["-e", RECEIVE_DATAGRAMS],
    cwd: project.dir,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    await waitUntil(async () =>
      await Deno.stat(`${project.dir}/dgram.sock`).then(
        (info) => info.mode !== null && (info.mode & 0o777) === 0o777,
        () => false,
      ), "the datagram listener");
    await attack();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    receiver.kill();
  }
  return new TextDecoder().decode((await receiver.output()).stdout);
}

Deno.test("Sandbox.run() refuses datagram socketpairs, so nothing reaches a socket outside", async () => {
  await using project = await createSandboxProject();
  let outcome;
  const received = await withDatagramListener(project, async () => {
    outcome = await project.run(SEND_DATAGRAM);
  });
  assertEquals(outcome, { output: "socketpair: Operation not permitted\n", code: 1 });
  assertEquals(received, "READY\n");
});

Deno.test("Sandbox.run() passes only stdin, stdout and stderr to the command", async () => {
  await using project = await createSandboxProject();
  const fd7 = `${project.dir}/provider.json`;
  assertEquals(await project.runInChild(FDS, { asNobody: false, fd7 }), ONLY_STDIO);
});

Deno.test("Sandbox.run() unsandboxed also passes only stdio", async () => {
  await using project = await createSandboxProject();
  const fd7 = `${project.dir}/provider.json`;
  const options = { asNobody: false, fd7, mode: "unsandboxed" } as const;
  assertEquals(await project.runInChild(FDS, options), ONLY_STDIO);
});

Deno.test({
  name: "Sandbox.run() as nobody: no Unix socket connection, no datagram pair, only stdio",
  ignore: !AS_ROOT,
  async fn() {
    await using project = await createSandboxProject();
    let outcome;
    const connected = await withListener(project, async () => {
      outcome = await project.runInChild(CONNECT, { asNobody: true });
    });
    assertEquals(outcome, REFUSED);
    assertEquals(connected, false);
    let sent;
    const received = await withDatagramListener(project, async () => {
      sent = await project.runInChild(SEND_DATAGRAM, { asNobody: true });
    });
    assertEquals(sent, { output: "socketpair: Operation not permitted\n", code: 1 });
    assertEquals(received, "READY\n");
    const fd7 = `${project.dir}/provider.json`;
    assertEquals(await project.runInChild(FDS, { asNobody: true, fd7 }), ONLY_STDIO);
  },
});
