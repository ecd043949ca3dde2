// Why a native module did not build, read from its build log (npm's lifecycle output: prebuild-install,
// node-gyp, make, the compiler), and the way out for that cause. Pure: scripts/build-native.mjs reads
// the log and looks for headers on this machine; this only reads text. Plain Node, no dependencies.
//
// Causes, in the order they are checked (an earlier one explains the later symptoms):
//   python-missing          node-gyp found no Python 3
//   make-missing            node-gyp found no `make`
//   compiler-missing        make could not run the C or C++ compiler (g++, cc, ...)
//   nodedir-without-headers --nodedir / npm_config_nodedir names a folder without Node's headers
//   headers-unreachable     node-gyp had to download Node's headers and could not
//   compiler-error          the compiler ran and refused the source
//   unknown                 none of these: the log's last error lines
// prebuild-install's own failed download (`prebuild-install warn install getaddrinfo ENOTFOUND
// github.com`) is not a cause: node-gyp builds from source after it, and that build's fate is what counts.

/** Lines of a compiler's first error shown to the learner (the rest is in the log). */
const COMPILER_ERROR_LINES = 4;
/** Lines of an unknown failure shown (the last `gyp ERR!` or error lines). */
const UNKNOWN_LINES = 6;

const TOOLCHAIN =
  "Debian/Ubuntu: apt-get install -y python3 make g++ (Fedora: dnf install python3 make gcc-c++; macOS: xcode-select --install)";

/** A compiler's error line: `file.cc:2:67: error: ...`, `cc1plus: fatal error: ...`. */
const COMPILER_ERROR = /^\S[^:]*(:\d+)*: (fatal )?error: /;

/** A network failure's code or words in a node-gyp error line. */
const NETWORK =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|getaddrinfo|socket hang up|network connectivity|self[- ]signed certificate|unable to get local issuer certificate|proxy)\b/i;

/**
 * @typedef {"python-missing" | "make-missing" | "compiler-missing" | "nodedir-without-headers" | "headers-unreachable" | "compiler-error" | "unknown"} BuildFailureCause
 * @typedef {{ cause: BuildFailureCause, what: string, lines: string[], url?: string, nodedir?: string, program?: string }} BuildDiagnosis
 */

/**
 * The cause of a failed build, from its log. `what` is one sentence saying what went wrong; `lines`
 * the log's own lines that show it (a compiler's first error, a network error); `url` the headers'
 * address node-gyp tried, `nodedir` the folder it was pointed at, `program` the tool it lacked.
 * @param {string} log
 * @returns {BuildDiagnosis}
 */
export function diagnoseBuildLog(log) {
  const all = log.split(/\r?\n/);
  const gyp = all.filter((l) => /^gyp (ERR!|WARN|http|info)/.test(l));

  if (/Could not find any Python installation to use/.test(log)) {
    return {
      cause: "python-missing",
      program: "python3",
      what: "node-gyp found no Python 3 to run.",
      lines: pick(gyp, /Could not find any Python/),
    };
  }
  const make = /gyp ERR! stack Error: not found: (\S*make)\b/.exec(log);
  if (make)
    return {
      cause: "make-missing",
      program: make[1],
      what: `node-gyp found no \`${make[1]}\` to run the build.`,
      lines: pick(gyp, /not found: \S*make/),
    };
  const compiler =
    /^make(?:\[\d+\])?: ([\w.+-]*(?:g\+\+|gcc|c\+\+|cc|clang\+\+|clang)): (?:No such file or directory|[Cc]ommand not found)/m.exec(log);
  if (compiler) {
    return {
      cause: "compiler-missing",
      program: compiler[1],
      what: `make could not run the compiler \`${compiler[1]}\`: it is not installed.`,
      lines: [compiler[0]],
    };
  }
  const missingGypi = /^gyp: (\S+?)\/(?:include\/node\/)?common\.gypi not found/m.exec(log);
  if (missingGypi) {
    return {
      cause: "nodedir-without-headers",
      nodedir: missingGypi[1],
      what: `node-gyp was pointed at ${missingGypi[1]} (--nodedir or npm_config_nodedir), which holds no Node headers (include/node/common.gypi).`,
      lines: [missingGypi[0]],
    };
  }
  const download = /^gyp http GET (\S+)/m.exec(log);
  const networkLines = gyp.filter((l) => /^gyp ERR!/.test(l) && NETWORK.test(l));
  if (download && (networkLines.length > 0 || /gyp WARN install got an error/.test(log))) {
    const reason = networkLines.map((l) => l.replace(/^gyp ERR! stack (Error: )?/, "")).find((l) => /\bE[A-Z]+\b|getaddrinfo/.test(l));
    // node-gyp's own error: its first stack line and the one after (its message may take two).
    const stack = all.findIndex((l) => /^gyp ERR! stack \w*Error\b/.test(l));
    const said = stack === -1 ? networkLines.slice(0, 2) : all.slice(stack, stack + 2).filter((l) => !/^gyp ERR! stack +at /.test(l));
    return {
      cause: "headers-unreachable",
      url: download[1],
      what: `node-gyp needed Node's headers and could not download them from ${download[1]}${reason ? ` (${reason.trim()})` : " (no network, or a proxy in the way)"}.`,
      lines: [download[0], ...said],
    };
  }
  const firstError = all.findIndex((l) => COMPILER_ERROR.test(l) && !/^(gyp|npm|make)\b/.test(l));
  if (firstError !== -1) {
    const lines = all.slice(firstError, firstError + COMPILER_ERROR_LINES).filter((l) => !/^make/.test(l));
    const context =
      firstError > 0 && /In (member )?function|In file included from/.test(all[firstError - 1] ?? "") ? [all[firstError - 1]] : [];
    return { cause: "compiler-error", what: "the compiler refused the source (its first error below).", lines: [...context, ...lines] };
  }
  const errors = all.filter((l) => /^gyp ERR! (stack|configure error|build error)|\berror\b/i.test(l) && !/^gyp ERR! stack +at /.test(l));
  return {
    cause: "unknown",
    what: "the build failed for a reason StudyLoop does not recognise (the log's error lines below).",
    lines: errors.slice(-UNKNOWN_LINES),
  };
}

/**
 * Where Node's headers for this Node are found on this machine, for the way out of a download that
 * failed: the folder to give as nodedir (it holds include/node/node_version.h of this version).
 * @typedef {{ nodedir: string, version: string }} HeadersFound
 */

/**
 * The way out for a cause, as lines to print: what to install or set, then `npm install` again.
 * `headers` is what build-native.mjs found on this machine for this Node (nodedir candidates with their
 * version), `nodeVersion` the running Node's (without the v).
 * @param {BuildDiagnosis} diagnosis
 * @param {{ nodeVersion: string, headers?: HeadersFound[] }} machine
 * @returns {string[]}
 */
export function wayOut(diagnosis, { nodeVersion, headers = [] }) {
  switch (diagnosis.cause) {
    case "python-missing":
    case "make-missing":
    case "compiler-missing":
      return [`Install the C/C++ toolchain (python3, make, g++): ${TOOLCHAIN}.`, "Then run npm install again."];
    case "nodedir-without-headers":
    case "headers-unreachable": {
      const matching = headers.find((h) => h.version === nodeVersion);
      const other = headers.find((h) => h.version !== nodeVersion);
      const lines = [];
      if (matching) {
        lines.push(`Node's headers for v${nodeVersion} are on this machine in ${matching.nodedir}/include/node: point node-gyp at them:`);
        lines.push(`  npm_config_nodedir=${matching.nodedir} npm install`);
      } else {
        lines.push(`node-gyp needs Node's headers for v${nodeVersion} (the files programs like node-pty compile against). Either:`);
        lines.push(
          `  - install them from your distribution, in the package that matches this Node (NodeSource's nodejs ships them in /usr/include/node; Debian's own nodejs needs libnode-dev), then: npm_config_nodedir=/usr npm install`,
        );
        lines.push(
          `  - or fetch https://nodejs.org/download/release/v${nodeVersion}/node-v${nodeVersion}-headers.tar.gz on a machine that can, unpack it here, and run: npm_config_nodedir=/path/to/node-v${nodeVersion} npm install`,
        );
        if (diagnosis.cause === "headers-unreachable")
          lines.push(
            "  - or let node-gyp download them: run npm install again where https://nodejs.org can be reached (set HTTPS_PROXY behind a proxy).",
          );
        if (other)
          lines.push(
            `(${other.nodedir}/include/node holds headers for v${other.version}, not this Node's v${nodeVersion}: a build against them would not load.)`,
          );
      }
      lines.push("The README's Prerequisites say more; `npm config set nodedir DIR` keeps the setting for every install.");
      return lines;
    }
    case "compiler-error":
      return [
        "Your compiler refused the source: most often a compiler older than this Node's headers need, or a Node version the module does not support yet.",
        "Check `g++ --version` (a current one from your distribution) and `node --version` against the README's Prerequisites, then run npm install again.",
      ];
    default:
      return ["Read the whole log (below); if the cause is not clear, open an issue with it. Then run npm install again."];
  }
}

/** @param {string[]} lines @param {RegExp} pattern */
function pick(lines, pattern) {
  return lines.filter((l) => pattern.test(l)).slice(0, 2);
}
