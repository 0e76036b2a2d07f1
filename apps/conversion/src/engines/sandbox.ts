import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';

/**
 * The sandbox LibreOffice runs in: Debian's bubblewrap (`bwrap`), with no network at all (a network
 * namespace of its own, holding only a loopback interface nobody else is on), its own PID, IPC, UTS
 * and user namespaces, no capabilities, an empty environment, and a file system of:
 *
 *   /usr (read-only, and the /bin /lib /lib64 /sbin links to it), the few pieces of /etc and /var
 *   LibreOffice reads (fonts configuration, its registry, the dynamic linker's cache, the time zone),
 *   a fresh /proc, a minimal /dev, a private empty /tmp, and read-write only the folders it is given
 *   (the job folder and the LibreOffice profile), each at the same path as outside.
 *
 * It dies with the worker (`--die-with-parent`): when the process that started it goes, so does every
 * process inside. Bubblewrap needs user namespaces (or CAP_SYS_ADMIN) from the container runtime;
 * `probeSandbox` says whether it can run here.
 */

export const BWRAP = '/usr/bin/bwrap';

export interface SandboxMounts {
  /** Folders LibreOffice may read and write (same path inside). */
  writable: string[];
  /** Folders it may only read (same path inside), beyond the system ones. */
  readable?: string[];
}

/** System paths a program needs besides /usr, bound read-only when the machine has them. */
const SYSTEM_READ_ONLY = [
  '/etc/fonts',
  '/etc/libreoffice',
  '/etc/ld.so.cache',
  '/etc/localtime',
  '/var/lib/libreoffice',
  '/var/cache/fontconfig',
];

/** /bin, /lib... as the machine has them: links into /usr (merged /usr, Debian 12) or folders of their own. */
function topLevelSystemDirs(): string[] {
  const args: string[] = [];
  for (const dir of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let link: string | undefined;
    try {
      const stat = lstatSync(dir);
      link = stat.isSymbolicLink() ? readlinkSync(dir) : undefined;
    } catch {
      continue; // not on this machine
    }
    args.push(...(link === undefined ? ['--ro-bind', dir, dir] : ['--symlink', link, dir]));
  }
  return args;
}

/** The bwrap options (without the command) for a sandbox with these mounts. */
export function sandboxArgs(mounts: SandboxMounts): string[] {
  const args = [
    '--unshare-all', // network, PID, IPC, UTS, cgroup and (where it can) user namespaces
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    ...topLevelSystemDirs(),
  ];
  for (const path of SYSTEM_READ_ONLY) args.push('--ro-bind-try', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const path of mounts.readable ?? []) args.push('--ro-bind', path, path);
  for (const path of mounts.writable) args.push('--bind', path, path);
  args.push('--chdir', '/tmp');
  return args;
}

export type SandboxProbe = { ok: true } | { ok: false; reason: string };

/** The sentence a document job fails with when the sandbox cannot run. */
export const SANDBOX_UNAVAILABLE =
  'document conversion is unavailable: the engine sandbox (bubblewrap with user namespaces) cannot run here';

/**
 * Whether the sandbox runs here: starts a trivial command in it (no network, the same mounts as a
 * conversion minus the job folders) and checks it succeeds.
 */
export function probeSandbox(bwrap = BWRAP): Promise<SandboxProbe> {
  if (!existsSync(bwrap)) return Promise.resolve({ ok: false, reason: `${bwrap} is not installed (Debian package bubblewrap)` });
  return new Promise((resolve) => {
    const child = spawn(bwrap, [...sandboxArgs({ writable: [] }), '--', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ ok: true });
      resolve({ ok: false, reason: stderr.trim().split('\n')[0] || `bwrap ended with ${code ?? signal}` });
    });
  });
}
