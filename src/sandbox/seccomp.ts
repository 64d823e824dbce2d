/**
 * The seccomp filter bubblewrap installs before running a command: a classic
 * BPF program, built here as the raw `struct sock_filter` array that
 * `bwrap --seccomp FD` reads.
 *
 * @module
 */

/** `AUDIT_ARCH_X86_64`: the `arch` field of a 64-bit x86 system call. */
export const AUDIT_ARCH_X86_64 = 0xc000003e;
/** `AUDIT_ARCH_AARCH64`: the `arch` field of a 64-bit little-endian ARM system call. */
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;

/** The system calls the filter looks at, by number, for one architecture. */
interface SyscallTable {
  arch: number;
  socket: number;
  socketpair: number;
  clone: number;
  unshare: number;
  clone3: number;
  ioUringSetup: number;
  /** The kernel keyring: `add_key`, `request_key`, `keyctl`. */
  keyring: readonly number[];
  /**
   * The calls that set a file's mode, by the argument that holds it: `chmod`, `fchmod`,
   * `creat`, `mkdir`, `mknod` (1); `open`, `fchmodat`, `fchmodat2`, `mkdirat`, `mknodat` (2);
   * `openat` (3).
   */
  modeArg: readonly [readonly number[], readonly number[], readonly number[]];
  /** `openat2`: its mode lies in a structure the filter cannot read. */
  openat2: number;
  /** x86_64 only: the x32 ABI sets this bit in the number. */
  x32Bit?: number;
}

const X86_64: SyscallTable = {
  arch: AUDIT_ARCH_X86_64,
  socket: 41,
  socketpair: 53,
  clone: 56,
  unshare: 272,
  clone3: 435,
  ioUringSetup: 425,
  keyring: [248, 249, 250],
  modeArg: [[90, 91, 85, 83, 133], [2, 268, 452, 258, 259], [257]],
  openat2: 437,
  x32Bit: 0x40000000,
};
const AARCH64: SyscallTable = {
  arch: AUDIT_ARCH_AARCH64,
  socket: 198,
  socketpair: 199,
  clone: 220,
  unshare: 97,
  clone3: 435,
  ioUringSetup: 425,
  keyring: [217, 218, 219],
  modeArg: [[52], [53, 452, 34, 33], [56]],
  openat2: 437,
};

const AF_UNIX = 1;
const SOCK_STREAM = 1;
/** `SOCK_TYPE_MASK`: the socket type without `SOCK_NONBLOCK`/`SOCK_CLOEXEC`. */
const SOCK_TYPE_MASK = 0xf;
const CLONE_NEWUSER = 0x10000000;
/** `S_ISUID | S_ISGID`: the set-user-id and set-group-id bits of a mode. */
const SET_ID_BITS = 0o6000;
const EPERM = 1;
const ENOSYS = 38;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_ALU_AND_K = 0x54;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;

/** Offsets in `struct seccomp_data`: nr, arch, then args[0] and args[1] (low halves, little-endian). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;
const OFFSET_ARG1_LOW = 24;
const OFFSET_ARG2_LOW = 32;
const OFFSET_ARG3_LOW = 40;

/** One BPF instruction; `jt`/`jf` are label names resolved by {@linkcode assemble}. */
interface Instruction {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
  label?: string;
}

/**
 * The filter: `socket(AF_UNIX, ...)` fails with EPERM, and so does a
 * `socketpair` of any type but `SOCK_STREAM` (a datagram end could `sendto()`
 * any datagram socket in the read-only root: journald, systemd's notify
 * socket, an application's IPC); so do `clone` and `unshare` asking for a new
 * user namespace (inside one a command would hold every capability again),
 * and `add_key`, `request_key` and `keyctl` (the session keyring powercode was
 * started with would be readable, as Docker's default profile also refuses);
 * so does giving a file or directory a set-user-id or set-group-id mode, by
 * `chmod` and its kin or at creation (`open`, `creat`, `mkdir`, `mknod` and their
 * `at` forms: a set-id program left in the project would run with powercode's user's
 * rights for anyone, root's when powercode runs as root);
 * `clone3`, `io_uring_setup` and `openat2` fail with ENOSYS (their arguments cannot be
 * inspected: libc falls back to `clone` and `openat`, and io_uring could create sockets
 * or files without passing through the filter). Every other call is allowed.
 *
 * Contract: only x86_64 and aarch64 system calls pass; any other
 * architecture (32-bit x86 through `int 0x80`, the x32 ABI) kills the process,
 * so no second system-call table can bypass the checks. Stream `socketpair`s
 * stay allowed: their two ends are connected only to each other, and libuv
 * (Node) and Python's asyncio need them. Bubblewrap sets `no_new_privs` before it installs
 * the filter, so nothing in the sandbox gains privileges through `execve` either.
 * Limit: a mode is refused whether or not the call creates (`O_CREAT`); callers pass 0 then.
 */
export function sandboxFilter(): Uint8Array {
  return assemble([
    { code: BPF_LD_W_ABS, k: OFFSET_ARCH },
    { code: BPF_JEQ_K, k: X86_64.arch, jt: "x86_64" },
    { code: BPF_JEQ_K, k: AARCH64.arch, jt: "aarch64", jf: "kill" },
    ...archBlock("x86_64", X86_64),
    ...archBlock("aarch64", AARCH64),
    { label: "socket", code: BPF_LD_W_ABS, k: OFFSET_ARG0_LOW },
    { code: BPF_JEQ_K, k: AF_UNIX, jt: "eperm", jf: "allow" },
    { label: "socketpair", code: BPF_LD_W_ABS, k: OFFSET_ARG1_LOW },
    { code: BPF_ALU_AND_K, k: SOCK_TYPE_MASK },
    { code: BPF_JEQ_K, k: SOCK_STREAM, jt: "allow", jf: "eperm" },
    { label: "namespace", code: BPF_LD_W_ABS, k: OFFSET_ARG0_LOW },
    { code: BPF_JSET_K, k: CLONE_NEWUSER, jt: "eperm", jf: "allow" },
    ...[OFFSET_ARG1_LOW, OFFSET_ARG2_LOW, OFFSET_ARG3_LOW].flatMap((offset, index) => [
      { label: `mode${index + 1}`, code: BPF_LD_W_ABS, k: offset },
      { code: BPF_JSET_K, k: SET_ID_BITS, jt: "eperm", jf: "allow" },
    ]),
    { label: "allow", code: BPF_RET_K, k: RET_ALLOW },
    { label: "eperm", code: BPF_RET_K, k: RET_ERRNO | EPERM },
    { label: "enosys", code: BPF_RET_K, k: RET_ERRNO | ENOSYS },
    { label: "kill", code: BPF_RET_K, k: RET_KILL_PROCESS },
  ]);
}

/** Dispatch on the system call number for one architecture. */
function archBlock(label: string, table: SyscallTable): Instruction[] {
  const x32: Instruction[] = table.x32Bit === undefined
    ? []
    : [{ code: BPF_JSET_K, k: table.x32Bit, jt: "kill" }];
  return [
    { label, code: BPF_LD_W_ABS, k: OFFSET_NR },
    ...x32,
    { code: BPF_JEQ_K, k: table.socket, jt: "socket" },
    { code: BPF_JEQ_K, k: table.socketpair, jt: "socketpair" },
    { code: BPF_JEQ_K, k: table.clone, jt: "namespace" },
    { code: BPF_JEQ_K, k: table.unshare, jt: "namespace" },
    ...table.keyring.map((nr): Instruction => ({ code: BPF_JEQ_K, k: nr, jt: "eperm" })),
    ...table.modeArg.flatMap((calls, index) =>
      calls.map((nr): Instruction => ({ code: BPF_JEQ_K, k: nr, jt: `mode${index + 1}` }))
    ),
    { code: BPF_JEQ_K, k: table.openat2, jt: "enosys" },
    { code: BPF_JEQ_K, k: table.clone3, jt: "enosys" },
    { code: BPF_JEQ_K, k: table.ioUringSetup, jt: "enosys", jf: "allow" },
  ];
}

/**
 * Encodes `program` as little-endian `struct sock_filter` entries (u16 code,
 * u8 jt, u8 jf, u32 k), turning label names into forward jump offsets; a
 * missing `jt`/`jf` falls through to the next instruction.
 */
function assemble(program: readonly Instruction[]): Uint8Array {
  const labels = new Map<string, number>();
  program.forEach((instruction, index) => {
    if (instruction.label !== undefined) labels.set(instruction.label, index);
  });
  const offset = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const target = labels.get(label);
    const jump = target === undefined ? -1 : target - from - 1;
    if (jump < 0 || jump > 255) {
      throw new RangeError(`Cannot assemble the seccomp filter: bad jump to "${label}"`);
    }
    return jump;
  };
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((instruction, index) => {
    view.setUint16(index * 8, instruction.code, true);
    view.setUint8(index * 8 + 2, offset(index, instruction.jt));
    view.setUint8(index * 8 + 3, offset(index, instruction.jf));
    view.setUint32(index * 8 + 4, instruction.k, true);
  });
  return bytes;
}

/** What {@linkcode sandboxFilter} refuses, in one line (for `--scope`). */
export const FILTER_SUMMARY = "socket(AF_UNIX), socketpair other than stream pairs, the " +
  "kernel keyring (add_key, request_key, keyctl), new user namespaces and set-user-id or " +
  "set-group-id modes (chmod, open, mkdir, mknod) refused (EPERM), clone3, openat2 and " +
  "io_uring unavailable (ENOSYS), other system-call tables killed";
