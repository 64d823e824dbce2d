import { assertEquals } from "@std/assert";
import {
  AUDIT_ARCH_AARCH64,
  AUDIT_ARCH_X86_64,
  sandboxFilter,
} from "../../../src/sandbox/seccomp.ts";

const AUDIT_ARCH_I386 = 0x40000003;
const ALLOW = "allow";
const EPERM = "errno 1";
const ENOSYS = "errno 38";
const KILL = "kill process";
const CLONE_NEWUSER = 0x10000000n;
const CLONE_THREAD_FLAGS = 0x3d0f00n;

/**
 * Runs the classic BPF program the way the kernel does for one system call
 * (`struct seccomp_data`: nr, arch, instruction pointer, six 64-bit arguments)
 * and names the verdict. Only the instructions a seccomp filter may use are
 * understood; anything else fails the test.
 */
function verdict(arch: number, nr: number, ...args: bigint[]): string {
  const data = new DataView(new ArrayBuffer(64));
  data.setUint32(0, nr, true);
  data.setUint32(4, arch, true);
  args.forEach((arg, index) => data.setBigUint64(16 + 8 * index, BigInt.asUintN(64, arg), true));
  const program = new DataView(sandboxFilter().buffer);
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.byteLength; pc++) {
    const code = program.getUint16(pc * 8, true);
    const k = program.getUint32(pc * 8 + 4, true);
    const [jt, jf] = [program.getUint8(pc * 8 + 2), program.getUint8(pc * 8 + 3)];
    if (code === 0x20) accumulator = data.getUint32(k, true);
    else if (code === 0x54) accumulator = (accumulator & k) >>> 0;
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf;
    else if (code === 0x06) return name(k);
    else throw new Error(`unexpected BPF instruction ${code} at ${pc}`);
  }
  throw new Error("the program ran off its end");
}

function name(action: number): string {
  if (action === 0x7fff0000) return ALLOW;
  if (action === 0x80000000) return KILL;
  if ((action & 0xffff0000) === 0x00050000) return `errno ${action & 0xffff}`;
  return `action ${action}`;
}

Deno.test("sandboxFilter() refuses AF_UNIX sockets and keeps the others", () => {
  const cases = [
    [AUDIT_ARCH_X86_64, 41, 1n, EPERM], // socket(AF_UNIX)
    [AUDIT_ARCH_X86_64, 41, 0xffffffff_00000001n, EPERM], // the kernel reads an int
    [AUDIT_ARCH_X86_64, 41, 2n, ALLOW], // socket(AF_INET)
    [AUDIT_ARCH_X86_64, 41, 16n, ALLOW], // socket(AF_NETLINK)
    [AUDIT_ARCH_AARCH64, 198, 1n, EPERM], // socket(AF_UNIX)
    [AUDIT_ARCH_AARCH64, 198, 10n, ALLOW], // socket(AF_INET6)
    [AUDIT_ARCH_AARCH64, 41, 1n, ALLOW], // 41 is pivot_root there, not socket
  ] as const;
  for (const [arch, nr, arg0, expected] of cases) {
    assertEquals(verdict(arch, nr, arg0), expected, `arch ${arch}, nr ${nr}, arg0 ${arg0}`);
  }
});

Deno.test("sandboxFilter() keeps only stream socketpairs", () => {
  const SOCK_CLOEXEC_NONBLOCK = 0x80800n;
  const cases = [
    [AUDIT_ARCH_X86_64, 53, 1n, ALLOW], // SOCK_STREAM
    [AUDIT_ARCH_X86_64, 53, 1n | SOCK_CLOEXEC_NONBLOCK, ALLOW], // libuv's flags
    [AUDIT_ARCH_X86_64, 53, 2n, EPERM], // SOCK_DGRAM
    [AUDIT_ARCH_X86_64, 53, 2n | SOCK_CLOEXEC_NONBLOCK, EPERM],
    [AUDIT_ARCH_X86_64, 53, 5n, EPERM], // SOCK_SEQPACKET
    [AUDIT_ARCH_X86_64, 53, 0xffffffff_00000002n, EPERM], // the kernel reads an int
    [AUDIT_ARCH_AARCH64, 199, 1n, ALLOW],
    [AUDIT_ARCH_AARCH64, 199, 2n, EPERM],
    [AUDIT_ARCH_AARCH64, 53, 2n, ALLOW], // 53 is fchmodat there, not socketpair
  ] as const;
  for (const [arch, nr, type, expected] of cases) {
    assertEquals(verdict(arch, nr, 1n, type), expected, `arch ${arch}, nr ${nr}, type ${type}`);
  }
});

Deno.test("sandboxFilter() refuses the kernel keyring calls", () => {
  const cases = [
    [AUDIT_ARCH_X86_64, 248, EPERM], // add_key
    [AUDIT_ARCH_X86_64, 249, EPERM], // request_key
    [AUDIT_ARCH_X86_64, 250, EPERM], // keyctl
    [AUDIT_ARCH_AARCH64, 217, EPERM],
    [AUDIT_ARCH_AARCH64, 218, EPERM],
    [AUDIT_ARCH_AARCH64, 219, EPERM],
    [AUDIT_ARCH_AARCH64, 250, ALLOW], // not a keyring call there
  ] as const;
  for (const [arch, nr, expected] of cases) {
    assertEquals(verdict(arch, nr), expected, `arch ${arch}, nr ${nr}`);
  }
});

Deno.test("sandboxFilter() refuses new user namespaces, clone3 and io_uring", () => {
  const cases = [
    [AUDIT_ARCH_X86_64, 56, CLONE_NEWUSER, EPERM], // clone
    [AUDIT_ARCH_X86_64, 56, CLONE_THREAD_FLAGS, ALLOW], // clone for a thread
    [AUDIT_ARCH_X86_64, 272, CLONE_NEWUSER | 0x20000n, EPERM], // unshare(USER | NS)
    [AUDIT_ARCH_X86_64, 272, 0x20000n, ALLOW], // unshare(NS): then fails for lack of capability
    [AUDIT_ARCH_X86_64, 435, 0n, ENOSYS], // clone3: libc falls back to clone
    [AUDIT_ARCH_X86_64, 425, 0n, ENOSYS], // io_uring_setup
    [AUDIT_ARCH_X86_64, 0, 0n, ALLOW], // read
    [AUDIT_ARCH_AARCH64, 220, CLONE_NEWUSER, EPERM], // clone
    [AUDIT_ARCH_AARCH64, 220, CLONE_THREAD_FLAGS, ALLOW],
    [AUDIT_ARCH_AARCH64, 97, CLONE_NEWUSER, EPERM], // unshare
    [AUDIT_ARCH_AARCH64, 435, 0n, ENOSYS],
    [AUDIT_ARCH_AARCH64, 425, 0n, ENOSYS],
    [AUDIT_ARCH_AARCH64, 63, 0n, ALLOW], // read
  ] as const;
  for (const [arch, nr, arg0, expected] of cases) {
    assertEquals(verdict(arch, nr, arg0), expected, `arch ${arch}, nr ${nr}, arg0 ${arg0}`);
  }
});

Deno.test("sandboxFilter() kills calls through another system-call table", () => {
  assertEquals(verdict(AUDIT_ARCH_I386, 102, 1n), KILL); // socketcall via int 0x80
  assertEquals(verdict(AUDIT_ARCH_I386, 3), KILL);
  assertEquals(verdict(AUDIT_ARCH_X86_64, 0x40000000 + 41, 1n), KILL); // x32 socket
  assertEquals(verdict(AUDIT_ARCH_X86_64, 0x40000000), KILL); // x32 read
  assertEquals(verdict(0xc00000f3, 198, 1n), KILL); // riscv64
});

Deno.test("sandboxFilter() refuses set-user-id and set-group-id modes, at creation too", () => {
  const X86 = AUDIT_ARCH_X86_64;
  const ARM = AUDIT_ARCH_AARCH64;
  const cases = [
    [X86, 90, [0n, 0o4755n], EPERM], // chmod
    [X86, 90, [0n, 0o755n], ALLOW],
    [X86, 91, [3n, 0o2755n], EPERM], // fchmod
    [X86, 268, [0n, 0n, 0o6755n], EPERM], // fchmodat
    [X86, 268, [0n, 0n, 0o644n], ALLOW],
    [X86, 452, [0n, 0n, 0o4000n], EPERM], // fchmodat2
    [X86, 2, [0n, 0o101n, 0o4755n], EPERM], // open(O_CREAT)
    [X86, 2, [0n, 0o101n, 0o755n], ALLOW],
    [X86, 257, [0n, 0n, 0o101n, 0o4755n], EPERM], // openat
    [X86, 257, [0n, 0n, 0o101n, 0o644n], ALLOW],
    [X86, 85, [0n, 0o2755n], EPERM], // creat
    [X86, 83, [0n, 0o2775n], EPERM], // mkdir
    [X86, 258, [0n, 0n, 0o2775n], EPERM], // mkdirat
    [X86, 258, [0n, 0n, 0o775n], ALLOW],
    [X86, 133, [0n, 0o104755n], EPERM], // mknod
    [X86, 259, [0n, 0n, 0o104755n], EPERM], // mknodat
    [X86, 437, [], ENOSYS], // openat2
    [ARM, 52, [3n, 0o4755n], EPERM], // fchmod
    [ARM, 53, [0n, 0n, 0o4755n], EPERM], // fchmodat
    [ARM, 56, [0n, 0n, 0o101n, 0o4755n], EPERM], // openat
    [ARM, 56, [0n, 0n, 0o101n, 0o644n], ALLOW],
    [ARM, 34, [0n, 0n, 0o2775n], EPERM], // mkdirat
    [ARM, 33, [0n, 0n, 0o104755n], EPERM], // mknodat
    [ARM, 437, [], ENOSYS], // openat2
    [ARM, 90, [0n, 0o4755n], ALLOW], // 90 is capget there, not chmod
  ] as const;
  for (const [arch, nr, args, expected] of cases) {
    assertEquals(verdict(arch, nr, ...args), expected, `arch ${arch}, nr ${nr}, args ${args}`);
  }
});
