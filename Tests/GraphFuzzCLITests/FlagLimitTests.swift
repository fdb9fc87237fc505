import Foundation
import Testing

@Suite("numeric flags are bounded; usage mistakes exit 2 (built executable)")
struct FlagLimitTests {
    @Test("values that cannot work are refused with exit 2 naming the flag, before anything runs", arguments: [
        (["--case-timeout", "2200000"], "--case-timeout: '2200000' is out of range"),
        (["--time", "1e300"], "--time: '1e300' is out of range"),
        (["--time", "1e400"], "--time: '1e400' is out of range (0.001–31536000 seconds)"),
        (["--time=1e-400"], "--time: '1e-400' is out of range (0.001–31536000 seconds)"),
        (["--case-timeout", "1e400"], "--case-timeout: '1e400' is out of range (0.1–86400 seconds)"),
        (["--jobs", "99999999999"], "--jobs: '99999999999' is out of range"),
        (["--steps", "9223372036854775807"], "--steps: '9223372036854775807' is out of range"),
        (["--runs", "99999999999999999999999"], "--runs: '99999999999999999999999' is out of range"),
        (["--case-timeout", "0.000001"], "--case-timeout: '0.000001' is too short"),
        (["bench", "--soak", "1e300"], "bench --soak: '1e300' is out of range"),
        (["replay", "--case-timeout", "0.000001"], "--case-timeout: '0.000001' is too short"),
        (["--seed", "18446744073709551616"], "--seed: '18446744073709551616' is out of range (0–18446744073709551615)"),
        (["coverage", "--seed", "99999999999999999999999"], "coverage --seed: '99999999999999999999999' is out of range (0–18446744073709551615)"),
        (["coverage", "--steps", "99999999999999999999"], "coverage --steps: '99999999999999999999' is out of range (1–1000000)"),
        (["--shard", "1/99999999999999999999"], "--shard: '1/99999999999999999999' is out of range"),
        (["import-crash", "crash-x", "--steps", "99999999999999999999"], "import-crash: --steps: '99999999999999999999' is out of range (1–1000000)"),
        (["import-crash", "crash-x", "--steps", "2000000"], "import-crash: --steps: '2000000' is out of range (1–1000000)"),
    ])
    func outOfRange(_ arguments: [String], _ message: String) throws {
        let result = try graphFuzz(arguments + (["bench", "replay", "coverage", "import-crash"].contains(arguments.first) ? [] : ["--no-save"]))
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stdout.isEmpty)
    }

    @Test("--jobs above the cores is capped with a note, and the run works")
    func jobsCapped() throws {
        let result = try graphFuzz(["--target", "queue", "--seed", "1", "--runs", "30", "--jobs", "200", "--no-save"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("note: --jobs 200: capped at \(ProcessInfo.processInfo.activeProcessorCount)"))
    }

    @Test("too few open files is exit 2 saying how to fix it, not an internal error")
    func openFileLimit() throws {
        let result = try shell("ulimit -n 8 && exec \"$GRAPH_FUZZ\" --target queue --seed 1 --runs 30 --jobs 2 --no-save")
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("open files") && result.stderr.contains("ulimit -n"), "stderr: \(result.stderr)")
    }

    @Test("usage mistakes that were silently accepted are refused", arguments: [
        (["--version", "--bogus"], "--version takes no other arguments"),
        (["--help", "--bogus"], "--help takes no other arguments"),
        (["--seed", "1", "--version"], "--version takes no other arguments"),
        (["list", "--json", "--markdown"], "--json and --markdown cannot be combined"),
        (["--seed", "1", "--seed", "2"], "--seed is given twice; give it once"),
        (["--seed=1", "--seed", "1"], "--seed is given twice; give it once"),
        (["--json", "--quiet", "--json"], "--json is given twice; give it once"),
        (["--json=yes"], "--json takes no value (got '--json=yes')"),
        (["replay", "--case-timeout", "1", "--case-timeout=2"], "replay --case-timeout is given twice; give it once"),
        (["coverage", "--runs=5", "--runs=6"], "coverage --runs is given twice; give it once"),
        (["frobnicate"], "commands: replay, list, export-tests, import-crash, export-seeds, bench"),
    ])
    func refused(_ arguments: [String], _ message: String) throws {
        let result = try graphFuzz(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
