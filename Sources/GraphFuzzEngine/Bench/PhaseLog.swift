#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the time to a first failure goes, for a maintainer who measures it: with `GRAPHFUZZ_PHASE_LOG=FILE` in the
/// environment, a campaign's processes (the parent, and its workers, which inherit the variable) each append one line
/// per phase to FILE: `PID MILLISECONDS CPU EVENT`, the milliseconds read from the monotonic clock (one clock for
/// every process of the machine) and CPU the process's own CPU milliseconds so far. Events: a worker's `forked` (it is
/// a fork of its parent rather than the executable started again) and `serve` (it is ready for requests), `batch START COUNT`, `case INDEX` (about to run), `failure INDEX RULE`, `shrink-start INDEX`
/// and `shrink-end INDEX ATTEMPTS` (a failure shrunk where it ran); `bench --first-failure`'s `campaign SEED` and
/// `report SEED` (its first failure reported). `scripts/phase-summary.py FILE` reads it. Without the variable an event
/// costs one `getenv` and is not even formatted.
package enum PhaseLog {
    /// The environment variable naming the file.
    package static let variable = "GRAPHFUZZ_PHASE_LOG"

    /// Appends `event` to the file the environment names, if it names one.
    package static func note(_ event: @autoclosure () -> String) {
        guard let path = getenv(variable) else { return }
        append(event(), to: String(cString: path))
    }

    /// Appends the line for `event` to the file at `path` (created when missing) with one `write` of an `O_APPEND`
    /// descriptor, so the lines of processes writing at once do not interleave. A file that cannot be opened is
    /// skipped: the log never fails a run.
    static func append(_ event: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let line = "\(getpid()) \(format(milliseconds: monotonicMilliseconds())) "
            + "\(format(milliseconds: Benchmark.cpuSeconds(children: false) * 1000)) \(event)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    /// Three decimals, without the locale or exponents.
    static func format(milliseconds: Double) -> String {
        let thousandths = Int((milliseconds * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
