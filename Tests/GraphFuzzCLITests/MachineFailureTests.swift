import Foundation
import Testing

/// A disk that cannot take the store's file (here a file-size limit, `ulimit -f`, with SIGXFSZ ignored so a write
/// past it fails with EFBIG, as on a full disk) fails SQLite with an I/O error. That is the machine's failure, not
/// the store's: the run ends in a harness fault (exit 3, case and step named), never in a failure of the code under
/// test. Before, the graph target reported `FAILURE graph — rule setup, thrown` when the new store file could not
/// be written, and a save that could not be written as a failed save where the specification expects it saved.
@Suite("a disk that fails the store is a harness fault (built executable)")
struct MachineFailureTests {
    @Test("graph and mapper: the store file cannot be made, or a save cannot be written", arguments: [
        ("graph", 40, 1, "making the system: the machine failed the case's new scratch store file: "),
        ("graph", 100, 3, "the machine failed the store's save: "),
        ("mapper", 40, 1, "making the system: the machine failed the case's new scratch store file: "),
        ("mapper", 100, 1, "the machine failed the store's save: "),
    ])
    func storeFileFails(_ target: String, _ blocks: Int, _ seed: Int, _ message: String) throws {
        // `ulimit -f` counts 512-byte blocks in POSIX sh: 40 stops the new file, 100 a later save of a case of the seed.
        let result = try shell("trap '' XFSZ; ulimit -f \(blocks); exec \"$GRAPH_FUZZ\" --target \(target) --seed \(seed) --runs 2000 --no-save --quiet --in-process")
        #expect(result.status == 3, "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stderr.contains("harness fault (not a failure of the code under test): target \(target), seed \(seed), case "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("disk I/O error"), "\(result.stderr)")
        #expect(!result.stdout.contains("FAILURE"))
    }
}
